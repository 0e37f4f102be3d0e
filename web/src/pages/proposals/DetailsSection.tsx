import { useTranslation } from 'react-i18next'
import { useUpdateProposal } from '../../api/proposals'
import type { Stewardship } from '../../api/types'
import { useUsersLite, userName } from '../../api/users'
import { useWards, wardName } from '../../api/wards'
import type { Proposal } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can } from '../../auth/roles'
import { useNotify } from '../../components/Notice'
import { formatDate, formatDateTime } from '../../components/ui'
import { ProposalForm } from './ProposalForm'

/** Who is released with this change, from which calling and since when (docs/api-reference.md §12). */
function ReleaseList({ p }: { p: Proposal }) {
  const { t } = useTranslation('proposal')
  if (p.releases.length === 0) return <>{t('releases.none')}</>
  return (
    <ul className="plain-list" data-testid="releases">
      {p.releases.map((r, i) => (
        <li key={i}>
          {t('releases.item', { name: `${r.fname} ${r.lname}`, calling: r.calling })}
          {r.since && <span className="muted small"> {t('releases.since', { date: formatDate(r.since) })}</span>}
        </li>
      ))}
    </ul>
  )
}

/** The proposal's details (the call and every release, the ward, who presents it, its stage), or their edit form. */
export function DetailsSection({
  proposal: p,
  editing,
  onEditing,
  steward,
}: {
  proposal: Proposal
  editing: boolean
  onEditing(editing: boolean): void
  steward: Stewardship | undefined
}) {
  const { t } = useTranslation('proposal')
  const me = useMe()
  const notify = useNotify()
  const wards = useWards()
  const users = useUsersLite()
  const update = useUpdateProposal(p.id)
  const manager = can(me, 'proposals.manage')
  return (
    <section className="card" aria-labelledby="details-h">
      <h2 id="details-h">{t('details')}</h2>
      {editing ? (
        <ProposalForm
          initial={{
            fname: p.fname,
            lname: p.lname,
            spouse_name: p.spouse_name ?? '',
            proposed_calling: p.proposed_calling,
            ward_id: p.ward_id,
            submitter: p.submitter,
            is_release: p.is_release,
            kind: p.kind,
            office: p.office,
            scope: p.scope,
            releases: p.releases,
            calling_id: p.calling_id,
            user_id: p.user_id,
          }}
          editingId={p.id}
          wards={wards.data ?? []}
          lockedWardId={manager ? null : p.ward_id}
          allowRelease={false}
          submitLabel={t('saveChanges')}
          onCancel={() => onEditing(false)}
          onSubmit={async (input) => {
            await update.mutateAsync(input)
            onEditing(false)
            notify(t('saved'), 'success')
          }}
        />
      ) : (
        <dl className="details">
          <dt>{p.kind === 'ordination' ? t('office.label') : t('proposedCalling')}</dt>
          <dd>{p.kind === 'ordination' && p.office ? t(`office.${p.office}`) : p.proposed_calling}</dd>
          {p.kind !== 'ordination' && (
            <>
              <dt>{t('releases.heading')}</dt>
              <dd>
                <ReleaseList p={p} />
              </dd>
            </>
          )}
          <dt>{t('ward')}</dt>
          <dd>{wardName(wards.data, p.ward_id)}</dd>
          <dt>{t('steward.presenter')}</dt>
          <dd data-testid="steward">
            {steward?.high_councilor
              ? t('steward.name', {
                  name: `${steward.high_councilor.fname} ${steward.high_councilor.lname}`,
                })
              : t('steward.none')}
          </dd>
          <dt>{t('spouse')}</dt>
          <dd>{p.spouse_name || '—'}</dd>
          <dt>{t('stage')}</dt>
          <dd>
            {t(`common:stage.${p.stage}`)}
            {p.stage_changed_at && (
              <span className="muted small"> {t('since', { date: formatDateTime(p.stage_changed_at) })}</span>
            )}
          </dd>
          <dt>{t('submittedBy')}</dt>
          <dd>
            {p.submitter === me.id ? t('common:you') : userName(users.data, p.submitter)}
            <span className="muted small"> {t('on', { date: formatDateTime(p.submitted_at) })}</span>
          </dd>
          <dt>{t('lastUpdated')}</dt>
          <dd>{formatDateTime(p.updated_at)}</dd>
        </dl>
      )}
    </section>
  )
}
