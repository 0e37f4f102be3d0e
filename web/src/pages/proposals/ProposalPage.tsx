import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
import { ApiError } from '../../api/client'
import { useMoveProposal, useProposal, useUpdateProposal } from '../../api/proposals'
import { useUsersLite, userName } from '../../api/users'
import { useWards, wardName } from '../../api/wards'
import { stewardOf, useStewardships } from '../../api/stewardships'
import { nextStage, prevStage, isClosedStage, stagePath, type Proposal } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can, canEditProposal, canVote } from '../../auth/roles'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, formatDate, formatDateTime, Loading, PageHeader } from '../../components/ui'
import { ROUTES } from '../../routes'
import { ProposalForm } from './ProposalForm'
import { CommentsSection } from './CommentsSection'
import { VotesSection } from './VotesSection'
import { InterviewSection } from './InterviewSection'
import { HistorySection } from './HistorySection'
import { DeclineProposalDialog, DeleteProposalDialog } from './ProposalConfirmations'
import { PresentedProgress } from '../sustainings/PresentedProgress'
import { PushVoteBar } from './PushVoteBar'
import { DatedStepDialog, InterviewHeldDialog } from './StepDialogs'

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

function StageTrack({ p }: { p: Proposal }) {
  const { t } = useTranslation('proposal')
  const path = stagePath(p.kind)
  const idx = path.indexOf(p.stage)
  return (
    <ol className="stage-track" aria-label={t('stages')}>
      {path.map((s, i) => (
        <li
          key={s}
          className={i < idx ? 'past' : i === idx ? 'current' : 'future'}
          aria-current={i === idx ? 'step' : undefined}
        >
          {t(`common:stage.${s}`)}
        </li>
      ))}
      {p.stage === 'declined' && (
        <li className="current declined" aria-current="step">
          {t('common:stage.declined')}
        </li>
      )}
    </ol>
  )
}

export default function ProposalPage() {
  const { t } = useTranslation('proposal')
  const { id: idParam } = useParams()
  const id = Number(idParam)
  const me = useMe()
  const notify = useNotify()
  const wards = useWards()
  const users = useUsersLite()
  const [editing, setEditing] = useState(false)
  const [declineOpen, setDeclineOpen] = useState(false)
  const [deleteOpen, setDeleteOpen] = useState(false)
  const [stepOpen, setStepOpen] = useState(false)
  const [heldOpen, setHeldOpen] = useState(false)

  const proposal = useProposal(id)
  const update = useUpdateProposal(id)
  const stewardships = useStewardships()
  const move = useMoveProposal({
    onSuccess: () => notify(t('stageChanged'), 'success'),
    onError: (err) =>
      notify(err instanceof ApiError && err.code === 'stale_stage' ? t('movedByOther') : err.message, 'error'),
  })

  if (proposal.isLoading) return <Loading label={t('loading')} />
  if (proposal.error) {
    const notFound = proposal.error instanceof ApiError && proposal.error.status === 404
    return (
      <div className="card">
        <h1>{notFound ? t('notFound') : t('loadFailed')}</h1>
        {!notFound && <ErrorMessage error={proposal.error} />}
        <Link to={ROUTES.board}>{t('backToBoard')}</Link>
      </div>
    )
  }
  const p = proposal.data
  if (!p) return null

  const manager = can(me, 'proposals.manage')
  const closed = isClosedStage(p.stage)
  const next = nextStage(p.stage, p.kind)
  const prev = prevStage(p.stage, p.kind)
  // docs/api-reference.md §18: the ward's high councilor presents it (and, for a call, may interview).
  const steward = stewardOf(stewardships.data, p.ward_id)

  return (
    <div className="proposal-page">
      <p className="breadcrumb">
        <Link to={ROUTES.board}>← {t('common:nav.board')}</Link>
      </p>
      <PageHeader
        docTitle={`${p.fname} ${p.lname}`}
        title={
          <>
            {p.fname} {p.lname}{' '}
            <span className={`badge badge-${p.kind}`} data-testid="kind-badge">
              {p.kind === 'ordination' && p.office ? t(`office.${p.office}`) : t(p.kind)}
            </span>
          </>
        }
        actions={
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
              <button type="button" className="button" onClick={() => setEditing(true)}>
                {t('common:edit')}
              </button>
            )}
          </>
        }
      />
      <StageTrack p={p} />
      <PresentedProgress proposal={p} className="lead" />
      {!p.is_release && <PushVoteBar proposal={p} />}

      <div className="proposal-grid">
        <div className="stack">
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
                onCancel={() => setEditing(false)}
                onSubmit={async (input) => {
                  await update.mutateAsync(input)
                  setEditing(false)
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
          {!p.is_release && <VotesSection proposal={p} canVote={canVote(me, p)} />}
          {(p.stage === 'interview' || p.interview) && (
            <InterviewSection
              proposal={p}
              manager={manager}
              suggested={p.kind === 'call' ? (steward?.high_councilor ?? null) : null}
            />
          )}
          <CommentsSection proposalId={p.id} />
        </div>
        <HistorySection proposalId={p.id} stage={p.stage} />
      </div>
      {manager && (!closed || p.stage !== 'done') && (
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
      )}
      {stepOpen && <DatedStepDialog proposal={p} open={stepOpen} onOpenChange={setStepOpen} />}
      {heldOpen && <InterviewHeldDialog proposal={p} open={heldOpen} onOpenChange={setHeldOpen} manager={manager} />}

      <DeclineProposalDialog proposal={p} open={declineOpen} onOpenChange={setDeclineOpen} />
      <DeleteProposalDialog proposal={p} open={deleteOpen} onOpenChange={setDeleteOpen} />
    </div>
  )
}
