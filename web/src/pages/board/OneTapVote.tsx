import { useTranslation } from 'react-i18next'
import type { Stage } from '../../api/types'
import { UNDO_SECONDS, type OneTapVotes } from './useOneTapVotes'

/**
 * Approve and Reject in one tap, or, while a tapped vote waits, what it will
 * do and its Undo ("Needs me" and a proposal opened from a push).
 */
export function OneTapVote({
  votes,
  id,
  name,
  stage,
  small = false,
}: {
  votes: OneTapVotes
  id: number
  name: string
  stage: Stage
  small?: boolean
}) {
  const { t } = useTranslation('board')
  const waiting = votes.shown[id]
  const button = small ? 'button small' : 'button'
  if (waiting === undefined)
    return (
      <>
        <button type="button" className={`${button} quick-approve`} onClick={() => votes.tap(id, name, stage, true)}>
          {t('needsMe.quick.approve')}
          <span className="visually-hidden"> {name}</span>
        </button>
        <button type="button" className={`${button} quick-reject`} onClick={() => votes.tap(id, name, stage, false)}>
          {t('needsMe.quick.reject')}
          <span className="visually-hidden"> {name}</span>
        </button>
      </>
    )
  return (
    <>
      <span className="quick-waiting">
        {t(waiting ? 'needsMe.quick.approving' : 'needsMe.quick.rejecting', { seconds: UNDO_SECONDS })}
      </span>{' '}
      <button type="button" className={button} onClick={() => votes.undo(id)}>
        {t('needsMe.quick.undo')}
        <span className="visually-hidden"> {name}</span>
      </button>
    </>
  )
}
