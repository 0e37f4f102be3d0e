import type { Availability, AvailabilityInput } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { withTransaction } from '../../db/transaction.ts'
import type { Executor } from '../../db/types.ts'
import { forbidden, invalid, notFound } from '../../errors.ts'
import { audited, record } from '../../events/record.ts'
import type { Actor } from '../../actor.ts'
import { rolesOf } from '../proposals/proposals.repository.ts'
import { currentStakeSettings } from '../stakes/stakes.repository.ts'
import * as repo from './appointments.repository.ts'

/** Who may set availability and send booking links: the stake presidency and proposals.manage. */
export async function isScheduler(db: Executor, actor: Actor): Promise<boolean> {
  return actor.permissions.has('proposals.manage') || (await rolesOf(db, actor.id)).presidency
}

/** Interview availability (docs/api-reference.md §18): weekly windows and dated exceptions. */
export class AvailabilityService {
  constructor(private readonly ctx: AppContext) {}

  async availability(actor: Actor, userId: number | undefined): Promise<Availability> {
    const id = userId ?? actor.id
    if (id !== actor.id && !(await isScheduler(this.ctx.db, actor))) throw notFound('User')
    if (!(await repo.findUser(this.ctx.db, id))) throw notFound('User')
    const rows = await repo.listWindows(this.ctx.db, [id])
    const { timezone } = await currentStakeSettings(this.ctx.db)
    return {
      user_id: id,
      timezone,
      weekly: rows
        .filter((r) => r.weekday !== null)
        .map((r) => ({ weekday: r.weekday!, start_minute: r.start_minute, end_minute: r.end_minute })),
      exceptions: rows
        .filter((r) => r.date !== null)
        .map((r) => ({ date: r.date!, start_minute: r.start_minute, end_minute: r.end_minute, open: r.open })),
      place: await repo.findPlace(this.ctx.db, id),
    }
  }

  /**
   * Replaces a user's availability. One's own: the presidency and managers
   * (anyone else has no interviews to offer); another's ("interview duty"):
   * proposals.manage only.
   */
  async setAvailability(actor: Actor, userId: number | undefined, input: AvailabilityInput): Promise<Availability> {
    const id = userId ?? actor.id
    if (id === actor.id ? !(await isScheduler(this.ctx.db, actor)) : !actor.permissions.has('proposals.manage'))
      throw forbidden('Only the stake presidency and proposal managers publish interview times')
    const user = await repo.findUser(this.ctx.db, id)
    if (!user) throw notFound('User')
    const problems = [
      ...input.weekly.map((w, i) => ({ w, loc: ['body', 'weekly', String(i)] })),
      ...input.exceptions.map((w, i) => ({ w, loc: ['body', 'exceptions', String(i)] })),
    ].filter(({ w }) => w.end_minute <= w.start_minute)
    if (problems.length > 0)
      throw invalid([...problems[0]!.loc, 'end_minute'], 'The end must come after the start', 'value_error')
    for (const [i, e] of input.exceptions.entries())
      if (
        Number.isNaN(Date.parse(`${e.date}T00:00:00Z`)) ||
        new Date(`${e.date}T00:00:00Z`).toISOString().slice(0, 10) !== e.date
      )
        throw invalid(['body', 'exceptions', String(i), 'date'], 'Input should be a valid date', 'date_parsing')
    await withTransaction(this.ctx.db, async (trx) => {
      await repo.replaceWindows(trx, id, [
        ...input.weekly.map((w) => ({ ...w, date: null, open: true })),
        ...input.exceptions.map((e) => ({ ...e, weekday: null })),
      ])
      if (input.place !== undefined) await repo.setPlace(trx, id, input.place?.trim() || null)
      await record(
        trx,
        this.ctx,
        audited(
          { by: actor.id, at: this.ctx.clock.iso() },
          'availability.update',
          { type: 'user', id },
          {
            weekly: input.weekly,
            exceptions: input.exceptions,
            ...(input.place !== undefined ? { place: input.place?.trim() || null } : {}),
          },
        ),
      )
    })
    return this.availability(actor, id)
  }
}
