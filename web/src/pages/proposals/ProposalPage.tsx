import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
import { ApiError } from '../../api/client'
import { useProposal } from '../../api/proposals'
import { stewardOf, useStewardships } from '../../api/stewardships'
import { stagePath, type Proposal } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can, canVote } from '../../auth/roles'
import { ErrorMessage, Loading, PageHeader } from '../../components/ui'
import { ROUTES } from '../../routes'
import { CommentsSection } from './CommentsSection'
import { DangerZone } from './DangerZone'
import { DetailsSection } from './DetailsSection'
import { VotesSection } from './VotesSection'
import { InterviewSection } from './InterviewSection'
import { HistorySection } from './HistorySection'
import { PresentedProgress } from '../sustainings/PresentedProgress'
import { PushVoteBar } from './PushVoteBar'
import { StageActions } from './StageActions'

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
  const [editing, setEditing] = useState(false)

  const proposal = useProposal(id)
  const stewardships = useStewardships()

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
        actions={<StageActions proposal={p} editing={editing} onEdit={() => setEditing(true)} />}
      />
      <StageTrack p={p} />
      <PresentedProgress proposal={p} className="lead" />
      {!p.is_release && <PushVoteBar proposal={p} />}

      <div className="proposal-grid">
        <div className="stack">
          <DetailsSection proposal={p} editing={editing} onEditing={setEditing} steward={steward} />
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
      {manager && <DangerZone proposal={p} />}
    </div>
  )
}
