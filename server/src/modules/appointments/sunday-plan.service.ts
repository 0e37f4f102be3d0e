import type { Sunday, SundayAssignmentsInput, SundayPerson, SundayPlan } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { withTransaction } from '../../db/transaction.ts'
import { invalid } from '../../errors.ts'
import { speakingDay } from '../speaking/feed.dates.ts'
import { listFeedWards } from '../speaking/feed.repository.ts'
import * as speaking from '../speaking/speaking.repository.ts'
import { toCalendar } from '../speaking/speaking.service.ts'
import { findUserById } from '../users/users.repository.ts'
import { assignmentRows, presidencyPeople, replaceAssignments, type AssignmentRow } from './sunday-plan.repository.ts'
import type { Insertable } from 'kysely'
import type { SundayAssignmentsTable } from './appointments.tables.ts'
import { weekdayOf } from './appointments.slots.ts'
import { doubleAssignments, type Placement } from './sunday-plan.conflicts.ts'

/** A ward visit and a conference session last two hours unless told; a speaking assignment one (as in the feed). */
const DEFAULT_MINUTES = 120
const SPEAKING_MINUTES = 60

type Ward = { id: number; name: string; start_time: number; speaking_sunday: number }

/** The Sundays (YYYY-MM-DD) of a year. */
export function sundaysOf(year: number): string[] {
  const out: string[] = []
  for (let t = Date.UTC(year, 0, 1); new Date(t).getUTCFullYear() === year; t += 24 * 3600 * 1000)
    if (new Date(t).getUTCDay() === 0) out.push(new Date(t).toISOString().slice(0, 10))
  return out
}

/** The stake's Sunday plan (docs/api-reference.md §18): assignments beside the speaking rotation, with warnings. */
export class SundayPlanService {
  constructor(private readonly ctx: AppContext) {}

  /** Each Sunday's speakers of the year, from the rotation and its overrides. */
  private async speakers(year: number, wards: Ward[]) {
    const db = this.ctx.db
    const [seats, overrides, topics] = await Promise.all([
      speaking.listSeats(db),
      speaking.listOverrides(db, year),
      speaking.listTopics(db, year),
    ])
    const calendar = toCalendar(year, seats, wards, overrides, topics)
    const wardById = new Map(wards.map((w) => [w.id, w]))
    const byDate = new Map<string, { user: SundayPerson; ward_id: number; start_minute: number }[]>()
    for (const row of calendar.rows) {
      if (!row.high_councilor) continue
      for (const cell of row.months) {
        const ward = cell.ward_id === null ? undefined : wardById.get(cell.ward_id)
        if (!ward) continue
        const day = speakingDay(year, cell.month, ward.speaking_sunday)
        const date = `${year}-${String(cell.month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
        const list = byDate.get(date) ?? []
        list.push({ user: row.high_councilor, ward_id: ward.id, start_minute: ward.start_time })
        byDate.set(date, list)
      }
    }
    return byDate
  }

  private sunday(
    date: string,
    rows: AssignmentRow[],
    speakers: { user: SundayPerson; ward_id: number; start_minute: number }[],
    wards: Ward[],
  ): Sunday {
    const wardName = (id: number | null) => wards.find((w) => w.id === id)?.name ?? ''
    const assignments = rows.map((r) => ({
      id: r.id,
      user: { id: r.user_id, fname: r.fname, lname: r.lname },
      kind: r.kind,
      ward_id: r.ward_id,
      session: r.session,
      start_minute: r.start_minute,
      duration_minutes: r.duration_minutes,
    }))
    const placements: Placement[] = [
      ...assignments.map((a) => ({
        user: a.user,
        what:
          a.kind === 'ward_visit'
            ? `a visit to ${wardName(a.ward_id)}`
            : `stake conference (${a.session ?? 'session'})`,
        start: a.start_minute,
        minutes: a.duration_minutes,
      })),
      ...speakers.map((s) => ({
        user: s.user,
        what: `speaking in ${wardName(s.ward_id)}`,
        start: s.start_minute,
        minutes: SPEAKING_MINUTES,
      })),
    ]
    return { date, assignments, speakers, warnings: doubleAssignments(placements) }
  }

  async year(year: number): Promise<SundayPlan> {
    const db = this.ctx.db
    const wards = await listFeedWards(db)
    const [rows, speakers, people] = await Promise.all([
      assignmentRows(db, `${year}-01-01`, `${year}-12-31`),
      this.speakers(year, wards),
      presidencyPeople(db),
    ])
    const sundays = sundaysOf(year).map((date) =>
      this.sunday(
        date,
        rows.filter((r) => r.date === date),
        speakers.get(date) ?? [],
        wards,
      ),
    )
    return { year, wards: wards.map((w) => ({ id: w.id, name: w.name, start_time: w.start_time })), people, sundays }
  }

  /** Replaces one Sunday's assignments; warnings are returned, never refused (the plan may be fixed afterwards). */
  async replace(input: SundayAssignmentsInput): Promise<Sunday> {
    const db = this.ctx.db
    const { date } = input
    const year = Number(date.slice(0, 4))
    if (new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date || year < 2000 || year > 2100)
      throw invalid(['body', 'date'], 'Input should be a valid date', 'date_parsing')
    if (weekdayOf(date) !== 0) throw invalid(['body', 'date'], 'The date must be a Sunday')
    const wards = await listFeedWards(db)
    const values: Insertable<SundayAssignmentsTable>[] = []
    for (const [i, a] of input.assignments.entries()) {
      const loc = (field: string) => ['body', 'assignments', String(i), field]
      const user = await findUserById(db, a.user_id)
      if (!user || !user.active) throw invalid(loc('user_id'), 'The person must be an active user')
      const ward = a.ward_id == null ? undefined : wards.find((w) => w.id === a.ward_id)
      if (a.kind === 'ward_visit' && !ward) throw invalid(loc('ward_id'), 'A ward visit needs an existing ward')
      if (a.kind === 'stake_conference' && a.ward_id != null)
        throw invalid(loc('ward_id'), 'A stake conference session is not in one ward')
      const start = a.start_minute ?? ward?.start_time
      if (start === undefined) throw invalid(loc('start_minute'), 'A stake conference session needs its start time')
      values.push({
        date,
        user_id: a.user_id,
        kind: a.kind,
        ward_id: ward?.id ?? null,
        session: a.kind === 'stake_conference' ? a.session?.trim() || 'General session' : null,
        start_minute: start,
        duration_minutes: a.duration_minutes ?? DEFAULT_MINUTES,
        updated_at: this.ctx.clock.iso(),
      })
    }
    await withTransaction(db, (trx) => replaceAssignments(trx, date, values))
    const speakers = (await this.speakers(year, wards)).get(date) ?? []
    return this.sunday(date, await assignmentRows(db, date, date), speakers, wards)
  }
}
