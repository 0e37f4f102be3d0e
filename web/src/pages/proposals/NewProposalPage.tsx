import { useNavigate } from 'react-router'
import { useTranslation } from 'react-i18next'
import { useWards } from '../../api/wards'
import { useCreateProposal } from '../../api/proposals'
import type { ProposalInput } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { bishopWards, can, isBishop } from '../../auth/roles'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, Loading, PageHeader } from '../../components/ui'
import { ROUTES } from '../../routes'
import { ProposalForm } from './ProposalForm'

export default function NewProposalPage() {
  const { t } = useTranslation('sustainings')
  const me = useMe()
  const wards = useWards()
  const navigate = useNavigate()
  const notify = useNotify()
  const create = useCreateProposal()

  if (wards.isLoading) return <Loading label={t('loading')} />
  if (wards.error) return <ErrorMessage error={wards.error} />
  const allWards = wards.data ?? []
  // A bishop without stake-wide rights proposes only for his own ward (docs/api-reference.md §7).
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
    scope: 'ward',
    releases: [],
    calling_id: null,
    user_id: null,
  }

  return (
    <div className="narrow">
      <PageHeader title={t('newProposal.title')} />
      <div className="card">
        <ProposalForm
          initial={initial}
          wards={choosable}
          lockedWardId={lockedWardId}
          allowRelease
          submitLabel={t('newProposal.submit')}
          onCancel={() => navigate(ROUTES.board)}
          onSubmit={async (input) => {
            const created = await create.mutateAsync(input)
            notify(t('newProposal.submitted'), 'success')
            navigate(ROUTES.proposal(created.id))
          }}
        />
      </div>
    </div>
  )
}
