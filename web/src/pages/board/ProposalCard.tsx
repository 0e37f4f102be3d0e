import { Link } from 'react-router'
import * as Menu from '@radix-ui/react-dropdown-menu'
import type { Proposal, Stage } from '../../api/types'
import { STAGE_LABELS, isVotingStage } from '../../api/types'
import { PresentedProgress } from '../sustainings/PresentedProgress'
import { ROUTES } from '../../routes'

export interface CardActions {
  canVote: boolean
  voting: boolean
  onVote(approved: boolean): void
  next: Stage | null
  prev: Stage | null
  canMove: boolean
  onMove(direction: 'advance' | 'revert'): void
}

function voteLabel(v: boolean | null): string {
  if (v === true) return 'You approved'
  if (v === false) return 'You rejected'
  return 'You have not voted'
}

export function ProposalCard({
  proposal: p,
  wardLabel,
  actions,
  dragging,
}: {
  proposal: Proposal
  wardLabel: string
  actions?: CardActions
  dragging?: boolean
}) {
  const votingStage = isVotingStage(p.stage)
  const name = `${p.fname} ${p.lname}`
  return (
    <article className={`pcard ${dragging ? 'pcard-dragging' : ''}`} aria-label={name} data-testid={`card-${p.id}`}>
      <div className="pcard-top">
        <Link to={ROUTES.proposal(p.id)} className="pcard-name">
          {name}
        </Link>
        <span className={`badge ${p.is_release ? 'badge-release' : 'badge-call'}`}>
          {p.is_release ? 'Release' : 'Call'}
        </span>
      </div>
      <div className="pcard-calling">{p.proposed_calling}</div>
      <div className="pcard-ward muted small">{wardLabel}</div>
      <PresentedProgress proposal={p} className="pcard-presented small" />
      {votingStage && (
        <div className="pcard-votes small">
          <span className="votes" aria-label={`${p.approvals.approved} approvals, ${p.approvals.rejected} rejections`}>
            <span className="vote-yes">✓ {p.approvals.approved}</span>
            <span className="vote-no">✗ {p.approvals.rejected}</span>
          </span>
          {actions?.canVote && (
            <span className={`my-vote ${p.my_vote === true ? 'yes' : p.my_vote === false ? 'no' : ''}`}>
              {voteLabel(p.my_vote)}
            </span>
          )}
        </div>
      )}
      {actions && (actions.canVote || (actions.canMove && (actions.next || actions.prev))) && (
        <div className="pcard-actions" onPointerDown={(e) => e.stopPropagation()}>
          {actions.canVote && (
            <>
              <button
                type="button"
                className={`button button-small ${p.my_vote === true ? 'button-primary' : ''}`}
                aria-pressed={p.my_vote === true}
                disabled={actions.voting}
                onClick={() => actions.onVote(true)}
                aria-label={`Approve ${name}`}
              >
                Approve
              </button>
              <button
                type="button"
                className={`button button-small ${p.my_vote === false ? 'button-danger' : ''}`}
                aria-pressed={p.my_vote === false}
                disabled={actions.voting}
                onClick={() => actions.onVote(false)}
                aria-label={`Reject ${name}`}
              >
                Reject
              </button>
            </>
          )}
          {actions.canMove && (actions.next || actions.prev) && (
            <Menu.Root>
              <Menu.Trigger className="button button-small" aria-label={`Move ${name}`}>
                Move ▾
              </Menu.Trigger>
              <Menu.Portal>
                <Menu.Content className="menu" align="end" sideOffset={4}>
                  {actions.next && (
                    <Menu.Item className="menu-item" onSelect={() => actions.onMove('advance')}>
                      Forward to {STAGE_LABELS[actions.next]}
                    </Menu.Item>
                  )}
                  {actions.prev && (
                    <Menu.Item className="menu-item" onSelect={() => actions.onMove('revert')}>
                      Back to {STAGE_LABELS[actions.prev]}
                    </Menu.Item>
                  )}
                </Menu.Content>
              </Menu.Portal>
            </Menu.Root>
          )}
        </div>
      )}
    </article>
  )
}
