import type { Stage } from '@stake/contract'
import type { Executor } from '../../db/types.ts'
import { insertHistory } from './history.repository.ts'
import { deleteInterview, reopenInterview } from './interview.repository.ts'
import { interviewEffect } from './proposals.policy.ts'
import { moveStage } from './proposals.repository.ts'
import { audit } from '../audit/audit.repository.ts'
import { proposalFacts, proposalTarget } from './proposals.audit.ts'
import { enqueueWebhooks } from '../webhooks/webhooks.repository.ts'

export interface Transition {
  proposalId: number
  isRelease: boolean
  from: Stage
  to: Stage
  by: number
  at: string
  note?: string | null
}

/**
 * Moves a proposal from the stage the caller saw to the next one, inside the
 * caller's transaction: the conditional stage UPDATE, the history row and
 * what the move does to the interview commit or roll back together. False
 * (and nothing written) when the proposal is no longer at `from`.
 */
export async function transition(trx: Executor, move: Transition): Promise<boolean> {
  if (!(await moveStage(trx, move.proposalId, move.from, move.to, move.at))) return false
  await insertHistory(trx, {
    proposal_id: move.proposalId,
    from_stage: move.from,
    to_stage: move.to,
    by_user_id: move.by,
    at: move.at,
    note: move.note ?? null,
  })
  const who = { by: move.by, at: move.at }
  const facts = { ...(await proposalFacts(trx, move.proposalId)), from: move.from }
  if (move.to === 'declined') {
    await audit(trx, who, 'proposal.decline', proposalTarget(move.proposalId), { ...facts, reason: move.note ?? null })
  } else {
    await audit(trx, who, 'proposal.stage', proposalTarget(move.proposalId), { ...facts, to: move.to })
  }
  const effect = interviewEffect(move.from, move.to, move.isRelease)
  if (effect === 'delete') await deleteInterview(trx, move.proposalId)
  if (effect === 'reopen') await reopenInterview(trx, move.proposalId, move.at)
  await enqueueWebhooks(trx, move.to === 'declined' ? 'declined' : 'stage_changed', move.proposalId, move.at)
  return true
}
