import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/client'
import { useMoveProposal } from '../../api/proposals'
import { nextStage, prevStage, type Proposal } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can, canEditProposal } from '../../auth/roles'
import { useNotify } from '../../components/Notice'
import { DatedStepDialog, InterviewHeldDialog } from './StepDialogs'

/**
 * The page's stage moves (a dated step asks its day; leaving an interview
 * not held asks whether it was) and Edit.
 */
export function StageActions({
  proposal: p,
  editing,
  onEdit,
}: {
  proposal: Proposal
  editing: boolean
  onEdit(): void
}) {
  const { t } = useTranslation('proposal')
  const me = useMe()
  const notify = useNotify()
  const [stepOpen, setStepOpen] = useState(false)
  const [heldOpen, setHeldOpen] = useState(false)
  const move = useMoveProposal({
    onSuccess: () => notify(t('stageChanged'), 'success'),
    onError: (err) =>
      notify(err instanceof ApiError && err.code === 'stale_stage' ? t('movedByOther') : err.message, 'error'),
  })
  const manager = can(me, 'proposals.manage')
  const next = nextStage(p.stage, p.kind)
  const prev = prevStage(p.stage, p.kind)
  return (
    <>
      {manager && next && (
        <button
          type="button"
          className="button button-primary"
          disabled={move.isPending}
          onClick={() => {
            // A dated step asks its day; leaving an interview not held asks whether it was.
            if (p.stage === 'set_apart' || p.stage === 'ordain' || p.stage === 'record') setStepOpen(true)
            else if (p.stage === 'interview' && p.interview && !p.interview.interview_date) setHeldOpen(true)
            else move.mutate({ proposal: p, direction: 'advance' })
          }}
        >
          {t('forwardTo', { stage: t(`common:stage.${next}`) })}
        </button>
      )}
      {manager && prev && (
        <button
          type="button"
          className="button"
          disabled={move.isPending}
          onClick={() => move.mutate({ proposal: p, direction: 'revert' })}
        >
          {t('backTo', { stage: t(`common:stage.${prev}`) })}
        </button>
      )}
      {canEditProposal(me, p) && !editing && (
        <button type="button" className="button" onClick={onEdit}>
          {t('common:edit')}
        </button>
      )}
      {stepOpen && <DatedStepDialog proposal={p} open={stepOpen} onOpenChange={setStepOpen} />}
      {heldOpen && <InterviewHeldDialog proposal={p} open={heldOpen} onOpenChange={setHeldOpen} manager={manager} />}
    </>
  )
}
