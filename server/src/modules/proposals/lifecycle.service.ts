import type { HistoryEntry, Proposal, Stage } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { conflict, invalid, type AppError } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import { listHistory } from './history.repository.ts'
import { loadViewer, proposalNotFound, proposalView, visibleProposal } from './proposals.access.ts'
import { isClosed, kindOf, neighbourStage, type Viewer } from './proposals.policy.ts'
import { findInterview } from './interview.repository.ts'
import { lockProposal } from './proposals.repository.ts'
import { transition, type Transition } from './transition.ts'
import { withTransaction } from '../../db/transaction.ts'
import { recordOnRoster } from '../sustainings/records.ts'
import { isCalendarDate, todayIn } from '../sustainings/sustainings.policy.ts'
import { currentStakeSettings } from '../stakes/stakes.repository.ts'

export const staleStage = () =>
  conflict('stale_stage', 'The proposal is no longer at that stage; reload it and try again')
export const wrongStage = (message: string) => conflict('wrong_stage', message)
const notHeld = () =>
  conflict(
    'interview_not_held',
    'The interview was scheduled but is not marked held; mark it held, or say it was not needed',
  )
/** What the history says when a manager moves on without the scheduled interview. */
const WAIVED_NOTE = 'Interview not needed'

/** The steps a manager takes by name (docs/api-reference.md §7); each is valid at one stage only. */
export type NamedStep = 'sustain' | 'set_apart' | 'ordain' | 'record'

/** Manager moves: advance, revert, the named steps and decline, plus the history. */
export class LifecycleService {
  constructor(private readonly ctx: AppContext) {}

  /** Runs one checked move in its own transaction; `lost` is the answer when the stage changed meanwhile. */
  private async commit(
    actor: Actor,
    viewer: Viewer,
    move: Omit<Transition, 'by' | 'at'>,
    lost: () => AppError,
  ): Promise<Proposal> {
    const at = this.ctx.clock.iso()
    await withTransaction(this.ctx.db, async (trx) => {
      // docs/api-reference.md §12: recording fills and releases the linked slots in the same transaction.
      if (move.from === 'record' && move.to === 'done') await recordOnRoster(trx, this.ctx, actor, move.proposalId)
      if (!(await transition(trx, this.ctx, { ...move, by: viewer.id, at }))) throw lost()
    })
    return proposalView(this.ctx.db, viewer, move.proposalId)
  }

  /**
   * advance / revert ?from_stage=S: one step along the proposal's own path.
   * The stage the caller saw goes into the UPDATE's WHERE, so of two
   * managers moving one card exactly one wins; the other gets 409
   * stale_stage.
   */
  async move(
    actor: Actor,
    id: number,
    direction: 'advance' | 'revert',
    fromStage: Stage,
    waive = false,
  ): Promise<Proposal> {
    const viewer = await loadViewer(this.ctx, actor)
    const current = await visibleProposal(this.ctx.db, viewer, id)
    if (current.stage !== fromStage) throw staleStage()
    const kind = kindOf(current)
    const to = neighbourStage(fromStage, kind, direction)
    if (!to) {
      throw wrongStage(
        isClosed(fromStage)
          ? `A ${fromStage} proposal does not move any more`
          : `There is no stage to ${direction} to from ${fromStage}`,
      )
    }
    let note: string | null = null
    // docs/api-reference.md §7: nobody reaches the next stage past an interview that was
    // scheduled and never held, unless a manager says it was not needed (in the history).
    if (direction === 'advance' && fromStage === 'interview') {
      const interview = await findInterview(this.ctx.db, id)
      if (interview && interview.interview_date === null) {
        if (!waive) throw notHeld()
        note = WAIVED_NOTE
      }
    }
    return this.commit(actor, viewer, { proposalId: id, proposalKind: kind, from: fromStage, to, note }, staleStage)
  }

  /** POST /sustain, /set-apart, /ordain, /record: the step of that name, 409 wrong_stage elsewhere. */
  async step(actor: Actor, id: number, step: NamedStep, date?: string): Promise<Proposal> {
    const viewer = await loadViewer(this.ctx, actor)
    const current = await visibleProposal(this.ctx.db, viewer, id)
    const onDate = step === 'sustain' ? null : await this.stepDate(date, current.submitted_at)
    const notHere = () => wrongStage(`The proposal is at ${current.stage}, not ${step}`)
    const kind = kindOf(current)
    const to = current.stage === step ? neighbourStage(step, kind, 'advance') : null
    if (!to) throw notHere()
    return this.commit(actor, viewer, { proposalId: id, proposalKind: kind, from: step, to, onDate }, notHere)
  }

  /**
   * The day a step happened: a calendar date between the submission and
   * tomorrow (a step is not recorded in advance, nor before it was proposed);
   * default today in the stake's time zone.
   */
  private async stepDate(date: string | undefined, submittedAt: string): Promise<string> {
    const { timezone } = await currentStakeSettings(this.ctx.db)
    const now = this.ctx.clock.now()
    if (date === undefined) return todayIn(now, timezone)
    const tomorrow = todayIn(new Date(now.getTime() + 24 * 3600 * 1000), timezone)
    if (!isCalendarDate(date) || date < submittedAt.slice(0, 10) || date > tomorrow)
      throw invalid(['query', 'date'], 'The date must be a real day between the submission and today', 'date_range')
    return date
  }

  /** POST /decline {reason}: any open stage → declined; the reason is the history note. */
  async decline(actor: Actor, id: number, reason: string): Promise<Proposal> {
    const viewer = await loadViewer(this.ctx, actor)
    await visibleProposal(this.ctx.db, viewer, id)
    const at = this.ctx.clock.iso()
    await withTransaction(this.ctx.db, async (trx) => {
      const current = await lockProposal(trx, id, this.ctx.dialect)
      if (!current) throw proposalNotFound()
      if (isClosed(current.stage)) throw wrongStage(`The proposal is already ${current.stage}`)
      const moved = await transition(trx, this.ctx, {
        proposalId: id,
        proposalKind: kindOf(current),
        from: current.stage,
        to: 'declined',
        by: actor.id,
        at,
        note: reason.trim(),
      })
      if (!moved) throw staleStage()
    })
    return proposalView(this.ctx.db, viewer, id)
  }

  async history(actor: Actor, id: number): Promise<HistoryEntry[]> {
    const viewer = await loadViewer(this.ctx, actor)
    await visibleProposal(this.ctx.db, viewer, id)
    return listHistory(this.ctx.db, id)
  }
}
