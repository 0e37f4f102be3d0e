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
 * have not voted get a reminder; at most once an hour per proposal. Null when
 * the caller may not remind here; else what a button or a menu item runs.
 */
export function useRemindAction(proposalId: number, stage: Stage) {
  const { t } = useTranslation('notifications')
  const me = useMe()
  const notify = useNotify()
  const remind = useRemind(proposalId)
  if (!can(me, 'proposals.manage') || !isVotingStage(stage)) return null
  const minutes = (error: unknown) =>
    error instanceof ApiError && error.retryAfter !== undefined ? Math.ceil(error.retryAfter / 60) : 60
  return {
    label: t('remind.button'),
    pending: remind.isPending,
    run: () =>
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
      }),
  }
}

export function RemindButton({ proposalId, stage }: { proposalId: number; stage: Stage }) {
  const action = useRemindAction(proposalId, stage)
  if (!action) return null
  return (
    <button
      type="button"
      className="button"
      disabled={action.pending}
      onPointerDown={(e) => e.stopPropagation()}
      onClick={action.run}
      data-testid={`remind-${proposalId}`}
    >
      {action.label}
    </button>
  )
}
