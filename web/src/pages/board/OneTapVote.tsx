import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Stage } from '../../api/types'
import { UNDO_SECONDS, type OneTapVotes } from './useOneTapVotes'

/** Whole seconds left until `until` (epoch ms), ticking down while shown. */
function useSecondsLeft(until: number | undefined): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (until === undefined) return
    const timer = setInterval(() => setNow(Date.now()), 250)
    return () => clearInterval(timer)
  }, [until])
  // Never more than the whole wait: `now` may be from before the tap until the first tick.
  return until === undefined ? 0 : Math.min(UNDO_SECONDS, Math.max(1, Math.ceil((until - now) / 1000)))
}

/**
 * Approve and Reject in one tap, or, while a tapped vote waits, what it will
 * do with the seconds left counting down, and its Undo (the board's cards,
 * "Needs me" and a proposal opened from a push).
 */
export function OneTapVote({
  votes,
  id,
  name,
  stage,
  small = false,
  mine = null,
  only,
}: {
  votes: OneTapVotes
  id: number
  name: string
  stage: Stage
  small?: boolean
  /** The vote already cast, shown as the pressed button. */
  mine?: boolean | null
  /** Approve alone (a card keeps Reject in its menu). */
  only?: 'approve'
}) {
  const { t } = useTranslation('board')
  const waiting = votes.shown[id]
  const seconds = useSecondsLeft(waiting?.until)
  const button = small ? 'button button-small' : 'button'
  if (waiting === undefined) {
    const tap = (approved: boolean) => (
      <button
        type="button"
        className={`${button} ${approved ? 'quick-approve' : 'quick-reject'} ${
          mine === approved ? (approved ? 'button-primary' : 'button-danger') : ''
        }`}
        aria-pressed={mine === null ? undefined : mine === approved}
        onClick={() => votes.tap(id, name, stage, approved)}
      >
        {t(approved ? 'needsMe.quick.approve' : 'needsMe.quick.reject')}
        <span className="visually-hidden"> {name}</span>
      </button>
    )
    return (
      <>
        {tap(true)}
        {only !== 'approve' && tap(false)}
      </>
    )
  }
  return (
    <>
      <span className="quick-waiting" data-testid="quick-waiting">
        {t(waiting.approved ? 'needsMe.quick.approving' : 'needsMe.quick.rejecting', { seconds })}
      </span>{' '}
      <button type="button" className={button} onClick={() => votes.undo(id)}>
        {t('needsMe.quick.undo')}
        <span className="visually-hidden"> {name}</span>
      </button>
    </>
  )
}
