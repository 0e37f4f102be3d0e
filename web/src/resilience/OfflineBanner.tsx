import { useTranslation } from 'react-i18next'
import { useOnline } from './connection'

/** Shown while the server cannot be reached; goes away by itself on recovery. */
export function OfflineBanner() {
  const { t } = useTranslation()
  const online = useOnline()
  return (
    <div role="status" aria-live="polite" className="offline-slot">
      {!online && (
        <div className="offline-banner">
          <strong>{t('offline.title')}</strong> <span>{t('offline.text')}</span>
        </div>
      )}
    </div>
  )
}
