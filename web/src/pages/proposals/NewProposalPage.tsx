import { useNavigate } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { api } from '../../api/client'
import { qk, useWards } from '../../api/queries'
import type { Proposal, ProposalInput } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { bishopWards, can, isBishop } from '../../auth/roles'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, Loading, PageHeader } from '../../components/ui'
import { ROUTES } from '../../routes'
import { ProposalForm } from './ProposalForm'

export default function NewProposalPage() {
  const me = useMe()
  const wards = useWards()
  const navigate = useNavigate()
  const qc = useQueryClient()
  const notify = useNotify()

  if (wards.isLoading) return <Loading />
  if (wards.error) return <ErrorMessage error={wards.error} />
  const allWards = wards.data ?? []
  // A bishop without stake-wide rights proposes only for his own ward (contract §7).
  const ownWards = isBishop(me) && !can(me, 'proposals.manage') ? bishopWards(me, allWards) : []
  const lockedWardId = ownWards.length === 1 ? ownWards[0]!.id : null
  const choosable = ownWards.length > 1 ? ownWards : allWards

  const initial: ProposalInput = {
    fname: '',
    lname: '',
    spouse_name: '',
    proposed_calling: '',
    ward_id: lockedWardId ?? 0,
    submitter: me.id,
    is_release: false,
  }

  return (
    <div className="narrow">
      <PageHeader title="New proposal" />
      <div className="card">
        <ProposalForm
          initial={initial}
          wards={choosable}
          lockedWardId={lockedWardId}
          allowRelease
          submitLabel="Submit proposal"
          onCancel={() => navigate(ROUTES.board)}
          onSubmit={async (input) => {
            const created = await api<Proposal>('/calling-kanban/proposals', { method: 'POST', body: input })
            await qc.invalidateQueries({ queryKey: qk.board })
            notify('Proposal submitted.', 'success')
            navigate(ROUTES.proposal(created.id))
          }}
        />
      </div>
    </div>
  )
}
