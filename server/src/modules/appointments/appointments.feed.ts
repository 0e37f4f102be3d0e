import type { ICalCalendar } from 'ical-generator'
import type { Executor } from '../../db/types.ts'
import { listFeedWards } from '../speaking/feed.repository.ts'
import { listAppointments } from './appointments.repository.ts'
import { addDays, localInstant } from './appointments.slots.ts'

const KIND_WORDS: Record<string, string> = {
  proposal: 'Interview',
  temple_recommend: 'Temple recommend interview',
  ordination: 'Ordination interview',
  other: 'Interview',
}

/**
 * The calendar feed's share of §18 (docs/api-reference.md §13, §18): the
 * owner's booked interviews (he is their interviewer, so the person's name is
 * his to see; nobody else's feed carries them) from 30 days back, and the
 * Sunday plan's assignments for the feed's months — the owner's own, or the
 * whole stake's for a speaking.manage holder (presidency names only).
 */
export async function addPlanEvents(
  cal: ICalCalendar,
  db: Executor,
  owner: { id: number; wholeStake: boolean },
  now: Date,
  timeZone: string,
  months: { year: number; month: number }[],
): Promise<void> {
  const since = new Date(now.getTime() - 30 * 24 * 3600 * 1000).toISOString()
  for (const a of await listAppointments(db, owner.id, since)) {
    cal.createEvent({
      // The appointment's own id: a moved interview updates the same event.
      id: `appointment-${a.id}@stake-administration`,
      start: new Date(a.starts_at),
      end: new Date(a.ends_at),
      stamp: now,
      summary: `${KIND_WORDS[a.kind] ?? 'Interview'}: ${a.person_name}`,
    })
  }

  const first = months[0]!
  const last = months[months.length - 1]!
  const from = `${first.year}-${String(first.month).padStart(2, '0')}-01`
  const to = addDays(`${last.year}-${String(last.month).padStart(2, '0')}-01`, 31)
  let query = db
    .selectFrom('sunday_assignments as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select([
      'a.id',
      'a.date',
      'a.kind',
      'a.ward_id',
      'a.session',
      'a.start_minute',
      'a.duration_minutes',
      'u.fname',
      'u.lname',
    ])
    .where('a.date', '>=', from)
    .where('a.date', '<', to)
  if (!owner.wholeStake) query = query.where('a.user_id', '=', owner.id)
  const rows = await query.execute()
  if (rows.length === 0) return
  const wards = new Map((await listFeedWards(db)).map((w) => [w.id, w.name]))
  for (const r of rows) {
    const start = localInstant(r.date, r.start_minute, timeZone)
    const what =
      r.kind === 'ward_visit'
        ? `Ward visit: ${wards.get(r.ward_id ?? 0) ?? ''}`
        : `Stake conference: ${r.session ?? ''}`
    cal.createEvent({
      id: `sunday-${r.id}@stake-administration`,
      start,
      end: new Date(start.getTime() + r.duration_minutes * 60_000),
      stamp: now,
      summary: owner.wholeStake ? `${what} — ${`${r.fname} ${r.lname}`.trim()}` : what,
    })
  }
}
