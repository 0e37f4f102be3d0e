import type { Interview } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { conflict, forbidden, invalid, notFound } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import { staleStage, wrongStage } from './lifecycle.service.ts'
import * as repo from './interview.repository.ts'
import { loadViewer, proposalNotFound, visibleProposal } from './proposals.access.ts'
import { canCompleteInterview, canSee, kindOf, neighbourStage } from './proposals.policy.ts'
import { lockProposal, rolesOf, touchProposal, userExists } from './proposals.repository.ts'
import { transition } from './transition.ts'
import { withTransaction } from '../../db/transaction.ts'
import { record } from '../../events/record.ts'
import { effectivePermissionsOf } from '../users/permissions.repository.ts'

/** RFC 3339 (already checked by the schema) to UTC; a leap second or a year past 9999 is a 422. */
function toIso(value: string, field: string): string {
  const date = new Date(value)
  const iso = Number.isNaN(date.getTime()) ? '' : date.toISOString()
  if (!/^\d{4}-/.test(iso)) throw invalid(['query', field], 'Input should be a valid date-time', 'date_time_parsing')
  return iso
}

const DAY_MS = 24 * 3600 * 1000

/** The one interview of a proposal (docs/api-reference.md §7). */
export class InterviewService {
  constructor(private readonly ctx: AppContext) {}

  /**
   * Schedules (or replaces) the interview, at the `interview` stage only. The
   * proposal row is locked so a concurrent move off the stage cannot slip
   * between the stage check and the write.
   */
  async schedule(
    actor: Actor,
    id: number,
    interviewerId: number,
    scheduledFor: string | undefined,
  ): Promise<Interview> {
    const viewer = await loadViewer(this.ctx, actor)
    await visibleProposal(this.ctx.db, viewer, id)
    const plannedFor = scheduledFor ? toIso(scheduledFor, 'scheduled_for') : null
    const interviewer = await userExists(this.ctx.db, interviewerId)
    if (!interviewer || !interviewer.active)
      throw invalid(['query', 'interviewer_id'], 'The interviewer must be an active user')
    return withTransaction(this.ctx.db, async (trx) => {
      const proposal = await lockProposal(trx, id, this.ctx.dialect)
      if (!proposal) throw proposalNotFound()
      if (proposal.stage !== 'interview')
        throw wrongStage(`Interviews are scheduled at the interview stage; the proposal is at ${proposal.stage}`)
      // docs/api-reference.md §18: a member of the stake presidency interviews for an ordination.
      if (kindOf(proposal) === 'ordination' && !(await rolesOf(trx, interviewerId)).presidency)
        throw invalid(
          ['query', 'interviewer_id'],
          'A member of the stake presidency interviews for an ordination',
          'not_presidency',
        )
      // S10 (docs/api-reference.md §13): an interviewer who cannot see the proposal cannot hold its interview.
      const interviewerView = {
        id: interviewerId,
        permissions: await effectivePermissionsOf(trx, interviewerId),
        roles: await rolesOf(trx, interviewerId),
      }
      if (!canSee(interviewerView, proposal))
        throw invalid(['query', 'interviewer_id'], 'The interviewer cannot see this proposal', 'not_visible')
      // No two at once: the interviewer's booked appointments and other interviews (docs/decisions.md).
      if (plannedFor) {
        const end = new Date(Date.parse(plannedFor) + repo.INTERVIEW_MINUTES * 60_000).toISOString()
        if (await repo.interviewerBusy(trx, interviewerId, id, plannedFor, end))
          throw conflict('interviewer_busy', 'The interviewer already has an interview or appointment at that time')
      }
      const now = this.ctx.clock.iso()
      await touchProposal(trx, id, now)
      const row = await repo.upsertInterview(
        trx,
        { proposal_id: id, interviewer_id: interviewerId, scheduled_for: plannedFor },
        now,
      )
      await record(trx, this.ctx, { kind: 'interview.assign', proposalId: id, interviewerId, by: actor.id, at: now })
      return repo.toInterview(row)
    })
  }

  async get(actor: Actor, id: number): Promise<Interview> {
    const viewer = await loadViewer(this.ctx, actor)
    await visibleProposal(this.ctx.db, viewer, id)
    const row = await repo.findInterview(this.ctx.db, id)
    if (!row) throw notFound('Interview')
    return repo.toInterview(row)
  }

  /**
   * Records that the interview took place (default: now) and moves the
   * proposal to `sustain`. A manager or the assigned interviewer may do it,
   * the interviewer only while he can see the proposal (S10). The date lies
   * between the submission and a day from now (S10: no interview in 1900).
   */
  async complete(actor: Actor, id: number, completionDate: string | undefined): Promise<Interview> {
    const viewer = await loadViewer(this.ctx, actor)
    const now = this.ctx.clock.iso()
    const heldAt = completionDate ? toIso(completionDate, 'completion_date') : now
    return withTransaction(this.ctx.db, async (trx) => {
      const proposal = await lockProposal(trx, id, this.ctx.dialect)
      if (!proposal) throw proposalNotFound()
      const interview = await repo.findInterview(trx, id)
      const interviewerId = interview?.interviewer_id ?? null
      if (!canSee(viewer, proposal)) throw proposalNotFound()
      if (heldAt < proposal.submitted_at || heldAt > new Date(Date.parse(now) + DAY_MS).toISOString()) {
        throw invalid(
          ['query', 'completion_date'],
          'The interview date must lie between the submission and tomorrow',
          'date_range',
        )
      }
      if (!canCompleteInterview(viewer, interviewerId)) {
        throw forbidden('Only a proposal manager or the assigned interviewer may complete the interview')
      }
      if (proposal.stage !== 'interview') throw wrongStage(`The proposal is at ${proposal.stage}, not interview`)
      if (!interview) throw conflict('conflict', 'No interviewer is assigned; schedule the interview first')

      const row = await repo.completeInterview(trx, id, heldAt, now)
      const kind = kindOf(proposal)
      const moved = await transition(trx, this.ctx, {
        proposalId: id,
        proposalKind: kind,
        from: 'interview',
        to: neighbourStage('interview', kind, 'advance')!,
        by: actor.id,
        at: now,
        note: 'Interview completed',
      })
      if (!moved) throw staleStage()
      return repo.toInterview(row)
    })
  }
}
