import type { ProposalKind, Stage } from '@stake/contract'
import type { Executor } from '../../db/types.ts'
import { insertHistory } from './history.repository.ts'
import { deleteInterview, reopenInterview } from './interview.repository.ts'
import { interviewEffect } from './proposals.policy.ts'
import { moveStage } from './proposals.repository.ts'
import { record } from '../../events/record.ts'
import type { EventDeps } from '../../events/types.ts'

export interface Transition {
  proposalId: number
  /** The proposal's kind: its path decides what the move does to the interview. */
  proposalKind: ProposalKind
  from: Stage
  to: Stage
  by: number
  at: string
  note?: string | null
  /** The day a named step happened (YYYY-MM-DD), kept on its history row. */
  onDate?: string | null
}

/**
 * Moves a proposal from the stage the caller saw to the next one, inside the
 * caller's transaction: the conditional stage UPDATE, the history row and
 * what the move does to the interview commit or roll back together, with
 * the move's event (its audit entry, notifications and webhook deliveries). False
 * (and nothing written) when the proposal is no longer at `from`.
 */
export async function transition(trx: Executor, deps: EventDeps, move: Transition): Promise<boolean> {
  if (!(await moveStage(trx, move.proposalId, move.from, move.to, move.at))) return false
  await insertHistory(trx, {
    proposal_id: move.proposalId,
    from_stage: move.from,
    to_stage: move.to,
    by_user_id: move.by,
    at: move.at,
    note: move.note ?? null,
    on_date: move.onDate ?? null,
  })
  const effect = interviewEffect(move.from, move.to, move.proposalKind)
  if (effect === 'delete') await deleteInterview(trx, move.proposalId)
  if (effect === 'reopen') await reopenInterview(trx, move.proposalId, move.at)
  const { proposalKind: _kind, onDate: _onDate, ...event } = move
  await record(trx, deps, { kind: 'proposal.move', ...event })
  return true
}
