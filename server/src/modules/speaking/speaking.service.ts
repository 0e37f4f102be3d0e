import type {
  SpeakingCalendar,
  SpeakingOverrideBody,
  SpeakingOverrideQuery,
  SpeakingRow,
  SpeakingTopic,
  SpeakingTopicBody,
} from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { isForeignKeyViolation, isUniqueViolation } from '../../db/database.ts'
import type { Executor } from '../../db/types.ts'
import { conflict, invalid, ValidationFailure, type FieldError } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import * as repo from './speaking.repository.ts'
import {
  planOverride,
  planRestore,
  resolveMonth,
  type MonthInput,
  type MonthWrite,
  type SlotId,
  type WardId,
} from './speaking.rotation.ts'
import { retrying, withTransaction } from '../../db/transaction.ts'
import { audited, record } from '../../events/record.ts'

const MONTHS = Array.from({ length: 12 }, (_, i) => i + 1)

const wardMissing = (): FieldError => ({ loc: ['body', 'ward_id'], msg: 'Ward not found', type: 'value_error' })

/** The one mapper from rows to the calendar (docs/api-reference.md §8). */
export function toCalendar(
  year: number,
  seats: repo.SeatRow[],
  wards: { id: number; name: string }[],
  overrides: { month: number; slot_id: number; ward_id: number | null }[],
  topics: { month: number; topic: string; reference: string | null }[],
): SpeakingCalendar {
  const slotIds = seats.map((s) => s.slot_id)
  const wardIds = wards.map((w) => w.id)
  const rowsByMonth = MONTHS.map(() => new Map<SlotId, WardId | null>())
  for (const o of overrides) rowsByMonth[o.month - 1]?.set(o.slot_id, o.ward_id)
  const resolved = MONTHS.map((month) =>
    resolveMonth({ year, month, seats: slotIds, wards: wardIds, rows: rowsByMonth[month - 1]! }),
  )
  const topicByMonth = new Map(topics.map((t) => [t.month, t]))
  const rows: SpeakingRow[] = seats.map((seat) => ({
    slot_id: seat.slot_id,
    high_councilor_id: seat.user_id,
    high_councilor:
      seat.user_id === null ? null : { id: seat.user_id, fname: seat.fname ?? '', lname: seat.lname ?? '' },
    months: MONTHS.map((month) => {
      const cell = resolved[month - 1]!.get(seat.slot_id)!
      return {
        month,
        ward_id: cell.ward_id,
        overridden: cell.overridden,
        topic: topicByMonth.get(month)?.topic ?? null,
      }
    }),
  }))
  return {
    year,
    wards: wards.map((w) => ({ id: w.id, name: w.name })),
    rows,
    topics: MONTHS.map((month) => {
      const t = topicByMonth.get(month)
      return { month, topic: t?.topic ?? null, reference: t?.reference ?? null }
    }),
  }
}

export class SpeakingService {
  constructor(private readonly ctx: AppContext) {}

  /** The calendar year "now" is in (UTC). */
  currentYear(): number {
    return this.ctx.clock.now().getUTCFullYear()
  }

  async calendar(_actor: Actor, year: number): Promise<SpeakingCalendar> {
    // Independent reads; the resolver is correct for any combination of them.
    const { seats, wards, overrides, topics } = await repo.readYear(this.ctx.db, year)
    return toCalendar(year, seats, wards, overrides, topics)
  }

  /**
   * PUT /speaking/calendar/override (docs/api-reference.md §8): the seat held by
   * `high_councilor_id` takes `ward_id` (null = not speaking) in that month; a
   * seat that had the ward takes this seat's ward — both rows in one transaction.
   */
  async override(actor: Actor, body: SpeakingOverrideBody): Promise<SpeakingCalendar> {
    await this.writeMonth(actor, body.year, body.month, 'body', body.high_councilor_id, body.ward_id, (input, slot) =>
      planOverride(input, slot, body.ward_id),
    )
    return this.calendar(actor, body.year)
  }

  /** DELETE /speaking/calendar/override: back to the rotation (see planRestore for the swap's other half). */
  async restore(actor: Actor, query: SpeakingOverrideQuery): Promise<void> {
    await this.writeMonth(actor, query.year, query.month, 'query', query.high_councilor_id, null, (input, slot) =>
      planRestore(input, slot),
    )
  }

  /**
   * One month's write: lock the month (PostgreSQL), read seats, wards and the
   * month's rows inside the transaction, validate, plan, write.
   */
  private async writeMonth(
    actor: Actor,
    year: number,
    month: number,
    part: 'body' | 'query',
    userId: number,
    wardId: number | null,
    plan: (input: MonthInput, slot: SlotId) => MonthWrite,
  ): Promise<void> {
    const { db, dialect } = this.ctx
    try {
      await withTransaction(db, async (trx) => {
        await repo.lockMonth(trx, dialect, year, month)
        const { seats, wards, rows } = await this.readMonth(trx, year, month)
        const errors: FieldError[] = []
        const seat = seats.find((s) => s.user_id === userId)
        if (!seat) {
          errors.push({
            loc: [part, 'high_councilor_id'],
            msg: 'Not the user id of a current high councilor',
            type: 'value_error',
          })
        }
        if (wardId !== null && !wards.some((w) => w.id === wardId)) errors.push(wardMissing())
        if (errors.length > 0 || !seat) throw new ValidationFailure(errors)
        const input: MonthInput = {
          year,
          month,
          seats: seats.map((s) => s.slot_id),
          wards: wards.map((w) => w.id),
          rows,
        }
        const now = this.ctx.clock.iso()
        await repo.writeMonth(trx, { year, month, calling_id: seat.calling_id }, plan(input, seat.slot_id), now)
        // The body sets an override; the query (DELETE) clears one.
        const facts = { year, month, slot_id: seat.slot_id, high_councilor_id: userId }
        const who = { by: actor.id, at: now }
        const target = { type: 'calling', id: seat.calling_id } as const
        if (part === 'body')
          await record(trx, this.ctx, audited(who, 'override.set', target, { ...facts, ward_id: wardId }))
        else await record(trx, this.ctx, audited(who, 'override.clear', target, facts))
      })
    } catch (error) {
      // The ward was deleted after we read it.
      if (isForeignKeyViolation(error)) throw new ValidationFailure([wardMissing()])
      // Cannot happen while the month is locked; never a 500 if it somehow does.
      if (isUniqueViolation(error))
        throw conflict('conflict', 'The schedule of this month changed at the same time; try again')
      throw error
    }
  }

  private async readMonth(trx: Executor, year: number, month: number) {
    const seats = await repo.listSeats(trx)
    const wards = await repo.listWards(trx)
    const overrides = await repo.listOverrides(trx, year, month)
    const known = new Set(seats.map((s) => s.slot_id))
    const rows = new Map(overrides.filter((o) => known.has(o.slot_id)).map((o) => [o.slot_id, o.ward_id]))
    return { seats, wards, rows }
  }

  async topics(_actor: Actor, year: number): Promise<SpeakingTopic[]> {
    return (await repo.listTopics(this.ctx.db, year)).map((t) => ({
      month: t.month,
      topic: t.topic,
      reference: t.reference,
    }))
  }

  /** Sets (or replaces) a month's topic. Topic and reference are trimmed; an empty reference is none. */
  async setTopic(_actor: Actor, year: number, month: number, body: SpeakingTopicBody): Promise<SpeakingTopic> {
    const topic = body.topic.trim()
    if (topic.length === 0)
      throw invalid(['body', 'topic'], 'String should have at least 1 character', 'string_too_short')
    const reference = body.reference?.trim() || null
    const now = this.ctx.clock.iso()
    const row = await retrying(() => repo.upsertTopic(this.ctx.db, year, month, topic, reference, now))
    return { month: row.month, topic: row.topic, reference: row.reference }
  }

  /** Idempotent: a month without a topic answers 204 too. */
  async deleteTopic(_actor: Actor, year: number, month: number): Promise<void> {
    await retrying(() => repo.deleteTopic(this.ctx.db, year, month))
  }
}
