import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import type { PersonRef, Proposal, Stage } from '../../api/types'
import { isVotingStage } from '../../api/types'
import { PresentedProgress } from '../sustainings/PresentedProgress'
import { ROUTES } from '../../routes'
import { formatDateTime } from '../../i18n/format'
import { names } from './boardText'
import { CardMenu, CardVote } from './CardActions'
import type { OneTapVotes } from './useOneTapVotes'

/** One valid move of a card: a step forward or back along its own path. */
export interface CardMove {
  to: Stage
  direction: 'advance' | 'revert'
}

export interface CardActions {
  canVote: boolean
  /** The board's one-tap votes (shared with "Needs me"): a tap waits, undoable, then is sent. */
  votes: OneTapVotes
  /** Only the valid moves (none when the caller may not move cards). */
  moves: CardMove[]
  onMove(move: CardMove): void
}

/** The voting stage's tally: approvals needed and who has not voted yet. */
export interface CardVoting {
  required: number
  pending: PersonRef[]
}

/**
 * The interviewer (by name) and the planned date, on a card at `interview`.
 * Every card on the board comes from the compact board, which names each
 * card's interviewer in its `people` (api/board.ts puts the name on the card).
 */
function InterviewLine({ proposal: p }: { proposal: Proposal }) {
  const { t } = useTranslation('board')
  const interviewer = p.interview?.interviewer
  const when = p.interview?.scheduled_for ? formatDateTime(p.interview.scheduled_for) : null
  const text = `${
    interviewer ? t('card.interviewer', { name: `${interviewer.fname} ${interviewer.lname}` }) : t('card.noInterviewer')
  } · ${when ? t('card.interviewOn', { date: when }) : t('card.noInterviewDate')}`
  return (
    <div className="pcard-interview pcard-line small" data-testid="interview-line" title={text}>
      {text}
    </div>
  )
}

/** The tally at a voting stage, the caller's own vote, and who is still to vote (one line each). */
function VotesLine({ proposal: p, voting, canVote }: { proposal: Proposal; voting?: CardVoting; canVote: boolean }) {
  const { t, i18n } = useTranslation('board')
  const myVote = p.my_vote === true ? 'approved' : p.my_vote === false ? 'rejected' : 'none'
  const pending = voting && voting.pending.length > 0 ? names(i18n.language, voting.pending) : null
  return (
    <div className="pcard-votes small">
      <span className="pcard-tally" data-testid="tally">
        {voting
          ? voting.required === 1
            ? t('card.approvalsOfOne', { approved: p.approvals.approved })
            : t('card.approvalsOf', { approved: p.approvals.approved, required: voting.required })
          : t('card.approvals', { approved: p.approvals.approved })}
        {p.approvals.rejected > 0 && (
          <span className="vote-no"> · {t('card.rejections', { rejected: p.approvals.rejected })}</span>
        )}
      </span>
      {canVote && myVote !== 'none' && (
        <span className={`my-vote ${myVote === 'approved' ? 'yes' : myVote === 'rejected' ? 'no' : ''}`}>
          {t(`card.myVote.${myVote}`)}
        </span>
      )}
      {pending && (
        <span className="pcard-pending pcard-line" data-testid="pending-voters" title={pending}>
          {t('card.waitingFor', { names: pending })}
        </span>
      )}
    </div>
  )
}

/** A proposal on the board: at most a few short lines, its actions in one row. */
export function ProposalCard({
  proposal: p,
  wardLabel,
  actions,
  voting,
  dragging,
  handle,
}: {
  proposal: Proposal
  wardLabel: string
  actions?: CardActions
  voting?: CardVoting
  dragging?: boolean
  /** The drag handle (a button), when the card can be dragged. */
  handle?: ReactNode
}) {
  const { t } = useTranslation('board')
  const name = `${p.fname} ${p.lname}`
  return (
    <article
      className={`pcard ${dragging ? 'pcard-dragging' : ''}`}
      aria-label={name}
      data-testid={dragging ? undefined : `card-${p.id}`}
      data-card={p.id}
      tabIndex={-1}
    >
      <Link to={ROUTES.proposal(p.id)} className="pcard-name" title={name}>
        {name}
      </Link>
      {/* The drag handle and the menu share the calling's line: the name keeps the card's whole width. */}
      <div className="pcard-top">
        <div className="pcard-calling pcard-line" title={p.proposed_calling}>
          {p.proposed_calling}
          {(p.releases?.length ?? 0) > 0 && (
            <span className="pcard-releases muted small" data-testid="card-releases">
              {' '}
              {t('card.releases', { count: p.releases.length })}
            </span>
          )}
        </div>
        {handle}
        {actions && <CardMenu proposal={p} actions={actions} />}
      </div>
      <div className="pcard-meta pcard-line small" title={wardLabel}>
        <span className={`badge badge-${p.kind}`} data-testid="kind-badge">
          {p.kind === 'ordination' && p.office ? t(`card.office.${p.office}`) : t(`card.${p.kind}`)}
        </span>{' '}
        <span className="muted">{wardLabel}</span>
      </div>
      {p.stage === 'interview' && <InterviewLine proposal={p} />}
      <PresentedProgress proposal={p} className="pcard-presented small" />
      {isVotingStage(p.stage) && <VotesLine proposal={p} voting={voting} canVote={actions?.canVote ?? false} />}
      {actions?.canVote && <CardVote proposal={p} votes={actions.votes} />}
    </article>
  )
}
