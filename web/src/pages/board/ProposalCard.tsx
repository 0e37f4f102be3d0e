import { useRef, type ReactNode } from 'react'
import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import * as Menu from '@radix-ui/react-dropdown-menu'
import type { PersonRef, Proposal, Stage } from '../../api/types'
import { isVotingStage } from '../../api/types'
import { useUsersLite, userName } from '../../api/users'
import { PresentedProgress } from '../sustainings/PresentedProgress'
import { ROUTES } from '../../routes'
import { formatDateTime } from '../../i18n/format'
import { names } from './boardText'
import { RemindButton } from '../../components/RemindButton'

/** One valid move of a card: a step forward or back along its own path. */
export interface CardMove {
  to: Stage
  direction: 'advance' | 'revert'
}

export interface CardActions {
  canVote: boolean
  voting: boolean
  onVote(approved: boolean): void
  /** Only the valid moves (none when the caller may not move cards). */
  moves: CardMove[]
  onMove(move: CardMove): void
}

/** The voting stage's tally: approvals needed and who has not voted yet. */
export interface CardVoting {
  required: number
  pending: PersonRef[]
}

/** The interviewer (by name) and the planned date, on a card at `interview`. */
function InterviewLine({ proposal: p }: { proposal: Proposal }) {
  const { t } = useTranslation('board')
  const users = useUsersLite()
  const interview = p.interview
  const who = interview ? userName(users.data, interview.interviewer_id) : null
  const when = interview?.scheduled_for ? formatDateTime(interview.scheduled_for) : null
  return (
    <div className="pcard-interview small" data-testid="interview-line">
      {who ? t('card.interviewer', { name: who }) : t('card.noInterviewer')}
      {' · '}
      {when ? t('card.interviewOn', { date: when }) : t('card.noInterviewDate')}
    </div>
  )
}

export function ProposalCard({
  proposal: p,
  wardLabel,
  actions,
  voting,
  dragging,
  handle,
  extra,
}: {
  proposal: Proposal
  wardLabel: string
  actions?: CardActions
  voting?: CardVoting
  dragging?: boolean
  /** The drag handle (a button), when the card can be dragged. */
  handle?: ReactNode
  /** Further lines mounted by other features (e.g. a Remind button). */
  extra?: ReactNode
}) {
  const { t, i18n } = useTranslation('board')
  const votingStage = isVotingStage(p.stage)
  const name = `${p.fname} ${p.lname}`
  const myVote = p.my_vote === true ? 'approved' : p.my_vote === false ? 'rejected' : 'none'
  const moves = actions?.moves ?? []
  // A chosen move hands focus to the board (onto the moved card); Escape gives it back to the trigger.
  const moved = useRef(false)
  return (
    <article
      className={`pcard ${dragging ? 'pcard-dragging' : ''}`}
      aria-label={name}
      data-testid={dragging ? undefined : `card-${p.id}`}
      data-card={p.id}
      tabIndex={-1}
    >
      <div className="pcard-top">
        <Link to={ROUTES.proposal(p.id)} className="pcard-name">
          {name}
        </Link>
        <span className={`badge badge-${p.kind}`} data-testid="kind-badge">
          {p.kind === 'ordination' && p.office ? t(`card.office.${p.office}`) : t(`card.${p.kind}`)}
        </span>
        {handle}
      </div>
      <div className="pcard-calling">
        {p.proposed_calling}
        {(p.releases?.length ?? 0) > 0 && (
          <span className="pcard-releases muted small" data-testid="card-releases">
            {' '}
            {t('card.releases', { count: p.releases.length })}
          </span>
        )}
      </div>
      <div className="pcard-ward muted small">{wardLabel}</div>
      {p.stage === 'interview' && <InterviewLine proposal={p} />}
      <PresentedProgress proposal={p} className="pcard-presented small" />
      {votingStage && (
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
          {actions?.canVote && (
            <span className={`my-vote ${myVote === 'approved' ? 'yes' : myVote === 'rejected' ? 'no' : ''}`}>
              {t(`card.myVote.${myVote}`)}
            </span>
          )}
          {voting && voting.pending.length > 0 && (
            <span className="pcard-pending" data-testid="pending-voters">
              {t('card.waitingFor', { names: names(i18n.language, voting.pending) })}
            </span>
          )}
          <RemindButton proposalId={p.id} stage={p.stage} small />
        </div>
      )}
      {extra}
      {actions && (actions.canVote || moves.length > 0) && (
        <div className="pcard-actions" onPointerDown={(e) => e.stopPropagation()}>
          {actions.canVote && (
            <>
              <button
                type="button"
                className={`button button-small ${p.my_vote === true ? 'button-primary' : ''}`}
                aria-pressed={p.my_vote === true}
                disabled={actions.voting}
                onClick={() => actions.onVote(true)}
              >
                {t('card.approve')}
                <span className="visually-hidden"> {name}</span>
              </button>
              <button
                type="button"
                className={`button button-small ${p.my_vote === false ? 'button-danger' : ''}`}
                aria-pressed={p.my_vote === false}
                disabled={actions.voting}
                onClick={() => actions.onVote(false)}
              >
                {t('card.reject')}
                <span className="visually-hidden"> {name}</span>
              </button>
            </>
          )}
          {moves.length > 0 && (
            <Menu.Root>
              <Menu.Trigger className="button button-small" data-move-trigger={p.id}>
                {t('card.moveTo')}
                <span className="visually-hidden"> {t('card.moveToWho', { name })}</span>
              </Menu.Trigger>
              <Menu.Portal>
                <Menu.Content
                  className="menu"
                  align="end"
                  sideOffset={4}
                  onCloseAutoFocus={(e) => {
                    if (moved.current) e.preventDefault()
                    moved.current = false
                  }}
                >
                  {moves.map((m) => (
                    <Menu.Item
                      key={m.to}
                      className="menu-item"
                      onSelect={() => {
                        moved.current = true
                        actions.onMove(m)
                      }}
                    >
                      {t(m.direction === 'advance' ? 'card.forwardTo' : 'card.backTo', {
                        stage: t(`stages.${m.to}`),
                      })}
                    </Menu.Item>
                  ))}
                </Menu.Content>
              </Menu.Portal>
            </Menu.Root>
          )}
        </div>
      )}
    </article>
  )
}
