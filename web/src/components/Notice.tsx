import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

type Kind = 'info' | 'success' | 'error'
interface Note {
  id: number
  kind: Kind
  text: string
}

const NoticeContext = createContext<(text: string, kind?: Kind) => void>(() => {})

/** Short status messages in a polite live region, so screen readers hear them too. */
export function NoticeProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  const [notes, setNotes] = useState<Note[]>([])
  const nextId = useRef(1)
  const dismiss = useCallback((id: number) => setNotes((n) => n.filter((x) => x.id !== id)), [])
  const notify = useCallback(
    (text: string, kind: Kind = 'info') => {
      const id = nextId.current++
      setNotes((n) => [...n.slice(-2), { id, kind, text }])
      window.setTimeout(() => dismiss(id), kind === 'error' ? 8000 : 4000)
    },
    [dismiss],
  )
  const value = useMemo(() => notify, [notify])
  return (
    <NoticeContext.Provider value={value}>
      {children}
      <div className="notices" role="status" aria-live="polite">
        {notes.map((n) => (
          <div key={n.id} className={`notice notice-${n.kind}`}>
            <span>{n.text}</span>
            <button type="button" className="icon-button" aria-label={t('dismiss')} onClick={() => dismiss(n.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </NoticeContext.Provider>
  )
}

export function useNotify() {
  return useContext(NoticeContext)
}
