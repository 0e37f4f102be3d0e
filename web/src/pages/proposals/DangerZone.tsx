import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { isClosedStage, type Proposal } from '../../api/types'
import { DeclineProposalDialog, DeleteProposalDialog } from './ProposalConfirmations'

/** Last on the page and apart: declining (closes the proposal) and deleting, each confirmed first. */
export function DangerZone({ proposal: p }: { proposal: Proposal }) {
  const { t } = useTranslation('proposal')
  const [declineOpen, setDeclineOpen] = useState(false)
  const [deleteOpen, setDeleteOpen] = useState(false)
  const closed = isClosedStage(p.stage)
  if (closed && p.stage === 'done') return null
  return (
    <>
      <section className="card danger-zone" aria-labelledby="danger-h">
        <h2 id="danger-h">{t('dangerZone')}</h2>
        <div className="button-row">
          {!closed && (
            <button type="button" className="button" onClick={() => setDeclineOpen(true)}>
              {t('decline')}
            </button>
          )}
          {p.stage !== 'done' && (
            <button type="button" className="button button-danger" onClick={() => setDeleteOpen(true)}>
              {t('common:delete')}
            </button>
          )}
        </div>
      </section>
      <DeclineProposalDialog proposal={p} open={declineOpen} onOpenChange={setDeclineOpen} />
      <DeleteProposalDialog proposal={p} open={deleteOpen} onOpenChange={setDeleteOpen} />
    </>
  )
}
