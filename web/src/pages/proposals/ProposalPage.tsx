import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, ApiError } from '../../api/client'
import { actionKeys } from '../../api/actions'
import { qk, useUsersLite, useWards, wardName, userName } from '../../api/queries'
import { nextStage, prevStage, isClosedStage, stagePath, type Proposal } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can, canEditProposal, canVote } from '../../auth/roles'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, formatDateTime, Loading, PageHeader } from '../../components/ui'
import { ROUTES } from '../../routes'
import { ProposalForm } from './ProposalForm'
import { CommentsSection } from './CommentsSection'
import { VotesSection } from './VotesSection'
import { InterviewSection } from './InterviewSection'
import { HistorySection } from './HistorySection'
import { DeclineProposalDialog, DeleteProposalDialog } from './ProposalConfirmations'

function StageTrack({ p }: { p: Proposal }) {
  const { t } = useTranslation('proposal')
  const path = stagePath(p.is_release)
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
  const qc = useQueryClient()
  const notify = useNotify()
  const wards = useWards()
  const users = useUsersLite()
  const [editing, setEditing] = useState(false)
  const [declineOpen, setDeclineOpen] = useState(false)
  const [deleteOpen, setDeleteOpen] = useState(false)

  const proposal = useQuery({
    queryKey: qk.proposal(id),
    queryFn: () => api<Proposal>(`/calling-kanban/proposals/${id}`),
    enabled: Number.isInteger(id) && id > 0,
  })

  const refreshAll = () => {
    void qc.invalidateQueries({ queryKey: qk.proposal(id) })
    void qc.invalidateQueries({ queryKey: ['proposal-sub', id] })
    void qc.invalidateQueries({ queryKey: qk.board })
    void qc.invalidateQueries({ queryKey: actionKeys.all })
  }

  const move = useMutation({
    mutationFn: ({ direction, from }: { direction: 'advance' | 'revert'; from: string }) =>
      api<Proposal>(`/calling-kanban/proposals/${id}/${direction}`, { method: 'POST', query: { from_stage: from } }),
    onSuccess: () => notify(t('stageChanged'), 'success'),
    onError: (err) =>
      notify(err instanceof ApiError && err.status === 409 ? t('movedByOther') : (err as Error).message, 'error'),
    onSettled: refreshAll,
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
  const next = nextStage(p.stage, p.is_release)
  const prev = prevStage(p.stage, p.is_release)

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
            <span className={`badge ${p.is_release ? 'badge-release' : 'badge-call'}`}>
              {p.is_release ? t('release') : t('call')}
            </span>
          </>
        }
        actions={
          <>
            {canEditProposal(me, p) && !editing && (
              <button type="button" className="button" onClick={() => setEditing(true)}>
                {t('common:edit')}
              </button>
            )}
            {manager && prev && (
              <button
                type="button"
                className="button"
                disabled={move.isPending}
                onClick={() => move.mutate({ direction: 'revert', from: p.stage })}
              >
                {t('backTo', { stage: t(`common:stage.${prev}`) })}
              </button>
            )}
            {manager && next && (
              <button
                type="button"
                className="button button-primary"
                disabled={move.isPending}
                onClick={() => move.mutate({ direction: 'advance', from: p.stage })}
              >
                {t('forwardTo', { stage: t(`common:stage.${next}`) })}
              </button>
            )}
            {manager && !closed && (
              <button type="button" className="button" onClick={() => setDeclineOpen(true)}>
                {t('decline')}
              </button>
            )}
            {manager && p.stage !== 'done' && (
              <button type="button" className="button button-danger" onClick={() => setDeleteOpen(true)}>
                {t('common:delete')}
              </button>
            )}
          </>
        }
      />
      <StageTrack p={p} />

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
                }}
                wards={wards.data ?? []}
                lockedWardId={manager ? null : p.ward_id}
                allowRelease={false}
                submitLabel={t('saveChanges')}
                onCancel={() => setEditing(false)}
                onSubmit={async (input) => {
                  const updated = await api<Proposal>(`/calling-kanban/proposals/${id}`, { method: 'PUT', body: input })
                  qc.setQueryData(qk.proposal(id), updated)
                  void qc.invalidateQueries({ queryKey: qk.board })
                  void qc.invalidateQueries({ queryKey: actionKeys.all })
                  setEditing(false)
                  notify(t('saved'), 'success')
                }}
              />
            ) : (
              <dl className="details">
                <dt>{t('proposedCalling')}</dt>
                <dd>{p.proposed_calling}</dd>
                <dt>{t('ward')}</dt>
                <dd>{wardName(wards.data, p.ward_id)}</dd>
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
          {!p.is_release && <VotesSection proposal={p} canVote={canVote(me, p)} onChanged={refreshAll} />}
          {(p.stage === 'interview' || p.interview) && (
            <InterviewSection proposal={p} manager={manager} onChanged={refreshAll} />
          )}
          <CommentsSection proposalId={p.id} />
        </div>
        <HistorySection proposalId={p.id} stage={p.stage} />
      </div>

      <DeclineProposalDialog proposal={p} open={declineOpen} onOpenChange={setDeclineOpen} onChanged={refreshAll} />
      <DeleteProposalDialog proposal={p} open={deleteOpen} onOpenChange={setDeleteOpen} />
    </div>
  )
}
