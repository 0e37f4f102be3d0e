import { isVotingStage, type Reminded } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { withTransaction } from '../../db/transaction.ts'
import { AppError } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import { wrongStage } from '../proposals/lifecycle.service.ts'
import { loadViewer, proposalNotFound, visibleProposal } from '../proposals/proposals.access.ts'
import { lockProposal } from '../proposals/proposals.repository.ts'
import { record } from '../../events/record.ts'
import { claimManualReminder, lastManualReminder, lastNotificationOf, remindedAfter } from './reminders.repository.ts'

/** A manager reminds a proposal's voters at most once an hour (docs/api-reference.md §11). */
const MANUAL_REMINDER_INTERVAL_SECONDS = 3600

/** POST /calling-kanban/proposals/{id}/remind (docs/api-reference.md §11). */
export class RemindersService {
  constructor(private readonly ctx: AppContext) {}

  /**
   * `reminder` to every voter of the current stage who has not voted. The
   * one-hour limit is a conditional upsert on the proposal's reminder row:
   * of two managers reminding at once, one wins and the other gets 429.
   */
  async remind(actor: Actor, id: number): Promise<Reminded> {
    const viewer = await loadViewer(this.ctx, actor)
    await visibleProposal(this.ctx.db, viewer, id)
    const now = this.ctx.clock.now()
    const at = now.toISOString()
    const since = new Date(now.getTime() - MANUAL_REMINDER_INTERVAL_SECONDS * 1000).toISOString()
    return withTransaction(this.ctx.db, async (trx) => {
      const proposal = await lockProposal(trx, id, this.ctx.dialect)
      if (!proposal) throw proposalNotFound()
      if (!isVotingStage(proposal.stage)) throw wrongStage(`Nobody votes on a proposal at ${proposal.stage}`)
      if (!(await claimManualReminder(trx, id, at, since))) {
        const last = await lastManualReminder(trx, id)
        const wait = last
          ? Math.ceil((Date.parse(last) + MANUAL_REMINDER_INTERVAL_SECONDS * 1000 - now.getTime()) / 1000)
          : MANUAL_REMINDER_INTERVAL_SECONDS
        throw new AppError(429, 'too_many_attempts', 'The voters were reminded less than an hour ago', {
          'Retry-After': String(Math.max(1, wait)),
        })
      }
      const before = await lastNotificationOf(trx, id)
      await record(trx, this.ctx, { kind: 'proposal.remind', proposalId: id, automatic: false, by: actor.id, at })
      return { reminded: await remindedAfter(trx, id, before) }
    })
  }
}
