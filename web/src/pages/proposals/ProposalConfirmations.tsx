import { useState } from 'react'
import { useNavigate } from 'react-router'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/client'
import { useDeclineProposal, useDeleteProposal } from '../../api/proposals'
import { isClosedStage, type Proposal } from '../../api/types'
import { ConfirmDialog, Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, Field } from '../../components/ui'
import { ROUTES } from '../../routes'

interface Props {
  proposal: Proposal
  open: boolean
  onOpenChange(open: boolean): void
}

/**
 * Declining closes a proposal for good (docs/api-reference.md §7: `declined` is terminal),
 * so the dialog says what happens before asking for the reason.
 */
export function DeclineProposalDialog({ proposal: p, open, onOpenChange }: Props) {
  const { t } = useTranslation('confirmations')
  const notify = useNotify()
  const [reason, setReason] = useState('')
  const [reasonError, setReasonError] = useState<string | undefined>()
  const decline = useDeclineProposal(p.id, {
    onSuccess: () => {
      onOpenChange(false)
      setReason('')
      notify(t('decline.done'), 'success')
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 422) setReasonError(err.fieldMap().reason ?? err.message)
    },
  })
  const vars = { name: `${p.fname} ${p.lname}`, calling: p.proposed_calling }
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('decline.title')}
      description={t(p.is_release ? 'decline.whatHappensRelease' : 'decline.whatHappensCall', vars)}
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          if (!reason.trim()) {
            setReasonError(t('decline.reasonRequired'))
            return
          }
          setReasonError(undefined)
          decline.mutate(reason.trim())
        }}
      >
        <Field label={t('decline.reason')} error={reasonError} hint={t('decline.reasonHint')}>
          <textarea rows={3} value={reason} onChange={(e) => setReason(e.target.value)} />
        </Field>
        {decline.error && !(decline.error instanceof ApiError && decline.error.status === 422) && (
          <ErrorMessage error={decline.error} />
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={() => onOpenChange(false)}>
            {t('cancel')}
          </button>
          <button type="submit" className="button button-danger" disabled={decline.isPending}>
            {decline.isPending ? t('working') : t('decline.confirm')}
          </button>
        </div>
      </form>
    </Dialog>
  )
}

/** Deleting removes the proposal and everything recorded on it (docs/api-reference.md §7); the dialog says so. */
export function DeleteProposalDialog({ proposal: p, open, onOpenChange }: Props) {
  const { t } = useTranslation('confirmations')
  const navigate = useNavigate()
  const notify = useNotify()
  const remove = useDeleteProposal(p.id, {
    onSuccess: () => {
      notify(t('delete.done'), 'success')
      navigate(ROUTES.board, { replace: true })
    },
  })
  const vars = { name: `${p.fname} ${p.lname}`, calling: p.proposed_calling }
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('delete.title')}
      message={
        <>
          {t('delete.whatHappens', vars)}
          {!isClosedStage(p.stage) && ` ${t('delete.declineInstead')}`}
        </>
      }
      confirmLabel={t('delete.confirm')}
      danger
      busy={remove.isPending}
      error={<ErrorMessage error={remove.error} />}
      onConfirm={() => remove.mutate()}
    />
  )
}
