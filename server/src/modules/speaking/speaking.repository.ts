import { sql } from 'kysely'
import type { Dialect } from '../../db/database.ts'
import type { Executor } from '../../db/types.ts'
import { HIGH_COUNCILOR } from '../callings/callings.repository.ts'
import { seatsWithKey } from '../callings/seats.repository.ts'
import type { MonthWrite, SlotId, WardId } from './speaking.rotation.ts'

export interface SeatRow {
  calling_id: number
  slot_id: number
  user_id: number | null
  fname: string | null
  lname: string | null
}

function seatsQuery(db: Executor) {
  return seatsWithKey(db, [HIGH_COUNCILOR])
    .leftJoin('users as u', 'u.id', 'cs.user_id')
    .select(['cs.calling_id', 'cs.slot_id', 'cs.user_id', 'u.fname', 'u.lname'])
    .orderBy('cs.slot_id')
}

/** The High Councilor seats in slot order, with their holders (one query). */
export function listSeats(db: Executor): Promise<SeatRow[]> {
  return seatsQuery(db).execute()
}

/** Wards in id order: the rotation's order (docs/api-reference.md §8). */
export function listWards(db: Executor): Promise<{ id: number; name: string }[]> {
  return db.selectFrom('wards').select(['id', 'name']).orderBy('id').execute()
}

/** Everything the year's calendar shows (independent reads; parallel on PostgreSQL). */
export async function readYear(db: Executor, year: number) {
  const [seats, wards, overrides, topics] = await Promise.all([
    listSeats(db),
    listWards(db),
    listOverrides(db, year),
    listTopics(db, year),
  ])
  return { seats, wards, overrides, topics }
}

export function listOverrides(db: Executor, year: number, month?: number) {
  let query = db.selectFrom('speaking_overrides').select(['month', 'slot_id', 'ward_id']).where('year', '=', year)
  if (month !== undefined) query = query.where('month', '=', month)
  return query.execute()
}

/**
 * Serializes writers of one month on PostgreSQL: a transaction-scoped advisory
 * lock keyed by (speaking, month index), taken before the month is read, so two
 * concurrent overrides of the same month cannot both plan from the same state.
 * SQLite runs one write transaction at a time already.
 */
export async function lockMonth(trx: Executor, dialect: Dialect, year: number, month: number): Promise<void> {
  if (dialect !== 'postgres') return
  await sql`select pg_advisory_xact_lock(${SPEAKING_LOCK_CLASS}, ${12 * year + (month - 1)})`.execute(trx)
}

/** 'SP' — the first key of the speaking schedule's advisory locks. */
const SPEAKING_LOCK_CLASS = 0x5350

/**
 * Writes a month's plan: the touched rows are removed first and written again
 * in one statement, so a swap never holds one ward in two rows, even for an
 * instant (UNIQUE (year, month, ward_id) is checked row by row on PostgreSQL).
 */
export async function writeMonth(
  trx: Executor,
  key: { year: number; month: number; calling_id: number },
  write: MonthWrite,
  now: string,
): Promise<void> {
  const touched: SlotId[] = [...write.deletes, ...write.upserts.map((u) => u.slot_id)]
  if (touched.length === 0) return
  await trx
    .deleteFrom('speaking_overrides')
    .where('year', '=', key.year)
    .where('month', '=', key.month)
    .where('calling_id', '=', key.calling_id)
    .where('slot_id', 'in', touched)
    .execute()
  if (write.upserts.length === 0) return
  await trx
    .insertInto('speaking_overrides')
    .values(
      write.upserts.map((u) => ({ ...key, slot_id: u.slot_id, ward_id: u.ward_id as WardId | null, updated_at: now })),
    )
    .execute()
}

export function listTopics(db: Executor, year: number) {
  return db
    .selectFrom('speaking_topics')
    .select(['month', 'topic', 'reference'])
    .where('year', '=', year)
    .orderBy('month')
    .execute()
}

/** Insert or replace a month's topic in one statement (no check-then-write). */
export function upsertTopic(
  db: Executor,
  year: number,
  month: number,
  topic: string,
  reference: string | null,
  now: string,
) {
  return db
    .insertInto('speaking_topics')
    .values({ year, month, topic, reference, updated_at: now })
    .onConflict((oc) => oc.columns(['stake_id', 'year', 'month']).doUpdateSet({ topic, reference, updated_at: now }))
    .returning(['month', 'topic', 'reference'])
    .executeTakeFirstOrThrow()
}

export function deleteTopic(db: Executor, year: number, month: number) {
  return db.deleteFrom('speaking_topics').where('year', '=', year).where('month', '=', month).execute()
}
