import { useTranslation } from 'react-i18next'
import { ApiError } from '../api/client'
import { useRemind } from '../api/notifications'
import { isVotingStage, type Stage } from '../api/types'
import { useMe } from '../auth/AuthProvider'
import { can } from '../auth/roles'
import { useNotify } from './Notice'
import './notifications.css'

/**
 * "Remind" (proposals.manage, at a voting stage): the voters of the stage who
 * have not voted get a reminder; at most once an hour per proposal.
 */
export function RemindButton({ proposalId, stage, small }: { proposalId: number; stage: Stage; small?: boolean }) {
  const { t } = useTranslation('notifications')
  const me = useMe()
  const notify = useNotify()
  const remind = useRemind(proposalId)
  if (!can(me, 'proposals.manage') || !isVotingStage(stage)) return null
  const minutes = (error: unknown) =>
    error instanceof ApiError && error.retryAfter !== undefined ? Math.ceil(error.retryAfter / 60) : 60
  return (
    <button
      type="button"
      className={`button${small ? ' button-small' : ''}`}
      disabled={remind.isPending}
      onPointerDown={(e) => e.stopPropagation()}
      onClick={() =>
        remind.mutate(undefined, {
          onSuccess: (result) => notify(t('remind.done', { count: result.reminded.length }), 'success'),
          onError: (error) =>
            notify(
              error instanceof ApiError && error.status === 429
                ? t('remind.tooSoon', { count: minutes(error) })
                : error instanceof ApiError && error.code === 'wrong_stage'
                  ? t('remind.wrongStage')
                  : error.message,
              'error',
            ),
        })
      }
      data-testid={`remind-${proposalId}`}
    >
      {t('remind.button')}
    </button>
  )
}
