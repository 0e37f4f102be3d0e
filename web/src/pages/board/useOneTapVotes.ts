import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/client'
import { useQuickVote } from '../../api/proposals'
import type { Stage } from '../../api/types'

/** How long a one-tap vote waits, undoable, before it is sent. */
export const UNDO_SECONDS = 5

interface Waiting {
  approved: boolean
  name: string
  from: Stage
  timer: ReturnType<typeof setTimeout>
}

/** A vote waiting to be sent: which way, and when it goes (epoch ms, for the countdown). */
export interface Pending {
  approved: boolean
  until: number
}

/** Told once a vote reached the server: the stage the proposal is at afterwards (null when unknown). */
export type OnSent = (vote: { id: number; name: string; approved: boolean; from: Stage; stage: Stage | null }) => void

/**
 * One-tap votes with an undo: a tapped vote waits UNDO_SECONDS,
 * then is sent; "Undo" in that time forgets it (nothing reached the server,
 * so nobody was notified and nothing moved). Leaving the page or closing it
 * sends the waiting votes at once. What happened is said in a status line:
 * the vote, and whether it moved the proposal on (an auto-advance).
 */
export function useOneTapVotes(onSent?: OnSent) {
  const { t } = useTranslation('board')
  const vote = useQuickVote()
  const waiting = useRef(new Map<number, Waiting>())
  const sentTo = useRef(onSent)
  useEffect(() => {
    sentTo.current = onSent
  })
  const [shown, setShown] = useState<Record<number, Pending>>({})
  const [said, setSaid] = useState('')

  /** Takes a waiting vote out of the wait (its timer stopped, its undo gone); undefined when none waits. */
  const release = useCallback((id: number): Waiting | undefined => {
    const w = waiting.current.get(id)
    if (!w) return undefined
    clearTimeout(w.timer)
    waiting.current.delete(id)
    setShown(({ [id]: _gone, ...rest }) => rest)
    return w
  }, [])

  const send = useCallback(
    (id: number) => {
      const w = release(id)
      if (!w) return
      const what = w.approved ? 'approved' : 'rejected'
      vote(id, w.approved).then(
        ({ stage }) => {
          sentTo.current?.({ id, name: w.name, approved: w.approved, from: w.from, stage })
          setSaid(
            stage && stage !== w.from
              ? t(`needsMe.quick.${what}Moved`, { name: w.name, stage: t(`stages.${stage}`) })
              : t(`needsMe.quick.${what}Sent`, { name: w.name }),
          )
        },
        (err: unknown) =>
          setSaid(
            t('needsMe.quick.failed', {
              name: w.name,
              reason: err instanceof ApiError ? err.message : t('needsMe.quick.offline'),
            }),
          ),
      )
    },
    [release, t, vote],
  )

  const tap = useCallback(
    (id: number, name: string, from: Stage, approved: boolean) => {
      const timer = setTimeout(() => send(id), UNDO_SECONDS * 1000)
      waiting.current.set(id, { approved, name, from, timer })
      setShown((s) => ({ ...s, [id]: { approved, until: Date.now() + UNDO_SECONDS * 1000 } }))
      setSaid('')
    },
    [send],
  )

  const undo = useCallback(
    (id: number) => {
      const w = release(id)
      if (w) setSaid(t('needsMe.quick.undone', { name: w.name }))
    },
    [release, t],
  )

  // A waiting vote is never lost: sent when the page goes away or the tab closes.
  useEffect(() => {
    const list = waiting.current
    const flush = () => {
      for (const id of [...list.keys()]) send(id)
    }
    window.addEventListener('pagehide', flush)
    return () => {
      window.removeEventListener('pagehide', flush)
      flush()
    }
  }, [send])

  return { shown, said, tap, undo }
}

export type OneTapVotes = ReturnType<typeof useOneTapVotes>
