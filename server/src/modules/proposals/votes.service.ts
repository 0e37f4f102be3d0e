import type { Approval } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { forbidden } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import { staleStage, wrongStage } from './lifecycle.service.ts'
import { loadViewer, proposalNotFound, visibleProposal } from './proposals.access.ts'
import {
  approvalsRequired,
  canSee,
  canSeePresidencyVotes,
  canSeeVotes,
  neighbourStage,
  shouldAutoAdvance,
  voteCheck,
  kindOf,
} from './proposals.policy.ts'
import { lockProposal } from './proposals.repository.ts'
import { transition } from './transition.ts'
import * as repo from './votes.repository.ts'
import { withTransaction } from '../../db/transaction.ts'
import { audited, record } from '../../events/record.ts'
import { factsOf, proposalTarget } from './proposals.audit.ts'
import { currentStakeSettings } from '../stakes/stakes.repository.ts'

/** Votes at sp_approval and hc_approval (docs/api-reference.md §7). */
export class VotesService {
  constructor(private readonly ctx: AppContext) {}

  /**
   * Records the caller's vote at the current stage and, when the stage now
   * has enough approvals and no rejection, moves the proposal on — all in
   * one transaction. The proposal row is locked first (PostgreSQL; SQLite
   * runs one write transaction at a time), so concurrent votes are counted
   * one after another and the proposal advances exactly once.
   */
  async vote(actor: Actor, id: number, approved: boolean): Promise<{ vote: Approval; created: boolean }> {
    const viewer = await loadViewer(this.ctx, actor)
    const { dialect } = this.ctx
    return withTransaction(this.ctx.db, async (trx) => {
      const proposal = await lockProposal(trx, id, dialect)
      if (!proposal || !canSee(viewer, proposal)) throw proposalNotFound()
      const check = voteCheck(viewer.roles, proposal.stage)
      if (check === 'not_a_voter') throw forbidden('Only the stake presidency and high councilors vote on proposals')
      if (check === 'wrong_role') {
        throw forbidden(
          proposal.stage === 'sp_approval'
            ? 'Only the stake presidency votes at sp_approval'
            : 'Only high councilors vote at hc_approval',
        )
      }
      if (check === 'wrong_stage') throw wrongStage(`Nobody votes on a proposal at ${proposal.stage}`)

      const now = this.ctx.clock.iso()
      const key = { proposal_id: id, stage: proposal.stage, approver_id: actor.id }
      const created = await repo.insertVoteIfNew(trx, key, approved, now)
      if (!created) await repo.changeVote(trx, key, approved, now)
      const facts = { ...factsOf(proposal), stage: proposal.stage, approved, revote: !created }
      await record(trx, this.ctx, audited({ by: actor.id, at: now }, 'proposal.vote', proposalTarget(id), facts))

      const required = approvalsRequired(proposal.stage, await currentStakeSettings(trx))
      const counts = await repo.countVotes(trx, id, proposal.stage)
      const next = neighbourStage(proposal.stage, kindOf(proposal), 'advance')
      if (required !== null && next && shouldAutoAdvance(counts, required)) {
        const moved = await transition(trx, this.ctx, {
          proposalId: id,
          proposalKind: kindOf(proposal),
          from: proposal.stage,
          to: next,
          by: actor.id,
          at: now,
          note: `${counts.approved} approvals, no rejection`,
        })
        if (!moved) throw staleStage()
      }
      return { vote: await repo.findVote(trx, key), created }
    })
  }

  /** Who voted how, at every stage: for stake-wide viewers (docs/decisions.md). */
  async list(actor: Actor, id: number): Promise<Approval[]> {
    const viewer = await loadViewer(this.ctx, actor)
    await visibleProposal(this.ctx.db, viewer, id)
    if (!canSeeVotes(viewer)) throw forbidden('Individual votes are visible to stake-wide viewers only')
    const votes = await repo.listVotes(this.ctx.db, id)
    // The presidency's deliberation stays theirs (S9).
    return canSeePresidencyVotes(viewer) ? votes : votes.filter((v) => v.stage !== 'sp_approval')
  }
}
