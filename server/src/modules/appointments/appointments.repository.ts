import type { Insertable, Kysely } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { Executor } from '../../db/types.ts'
import { PRESIDENCY_KEYS } from '../proposals/proposals.policy.ts'
import { holdersOf } from '../callings/seats.repository.ts'
import type { AppointmentOffersTable } from './appointments.tables.ts'
import type { WindowLike } from './appointments.slots.ts'

// ---------------------------------------------------------------- availability

export async function listWindows(
  db: Executor,
  userIds: readonly number[],
): Promise<(WindowLike & { user_id: number })[]> {
  if (userIds.length === 0) return []
  const rows = await db
    .selectFrom('appointment_windows')
    .select(['user_id', 'weekday', 'date', 'start_minute', 'end_minute', 'open'])
    .where('user_id', 'in', [...userIds])
    .orderBy('id')
    .execute()
  return rows.map((r) => ({ ...r, open: Boolean(r.open) }))
}

/** Replaces the user's windows and exceptions (inside the caller's transaction). */
export async function replaceWindows(db: Executor, userId: number, rows: WindowLike[]): Promise<void> {
  await db.deleteFrom('appointment_windows').where('user_id', '=', userId).execute()
  if (rows.length > 0)
    await db
      .insertInto('appointment_windows')
      .values(rows.map((r) => ({ ...r, user_id: userId })))
      .execute()
}

/** Where the interviewer holds interviews; null when he has not said. */
export async function findPlace(db: Executor, userId: number): Promise<string | null> {
  const row = await db.selectFrom('interview_places').select('place').where('user_id', '=', userId).executeTakeFirst()
  return row?.place ?? null
}

/** Sets (or, with null, forgets) where the interviewer holds interviews. */
export async function setPlace(db: Executor, userId: number, place: string | null): Promise<void> {
  await db.deleteFrom('interview_places').where('user_id', '=', userId).execute()
  if (place !== null) await db.insertInto('interview_places').values({ user_id: userId, place }).execute()
}

/** Active holders of a stake presidency seat who have published at least one weekly window, by id. */
export async function presidencyInterviewers(db: Executor): Promise<number[]> {
  const rows = await holdersOf(db, PRESIDENCY_KEYS)
    .select('u.id')
    .distinct()
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('appointment_windows as w')
          .select('w.id')
          .whereRef('w.user_id', '=', 'u.id')
          .where('w.weekday', 'is not', null),
      ),
    )
    .orderBy('u.id')
    .execute()
  return rows.map((r) => r.id)
}

export function findUser(db: Executor, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'fname', 'lname', 'active', 'language', 'email'])
    .where('id', '=', id)
    .executeTakeFirst()
}

// ---------------------------------------------------------------- offers and bookings

export async function insertOffer(db: Executor, values: Insertable<AppointmentOffersTable>): Promise<number> {
  const row = await db.insertInto('appointment_offers').values(values).returning('id').executeTakeFirstOrThrow()
  return row.id
}

/** The stake of an offer's token: read across stakes by the anonymous booking page. */
export function findOfferStake(db: Kysely<DB>, tokenHash: string) {
  return db.selectFrom('appointment_offers').select(['stake_id']).where('token_hash', '=', tokenHash).executeTakeFirst()
}

export function findOffer(db: Executor, tokenHash: string) {
  return db.selectFrom('appointment_offers').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()
}

export function findBooking(db: Executor, offerId: number) {
  return db.selectFrom('appointments').selectAll().where('offer_id', '=', offerId).executeTakeFirst()
}

/** Quarters held by the interviewers' appointments in [from, until), other than `except`'s own. */
export async function takenQuarters(
  db: Executor,
  interviewerId: number,
  from: string,
  until: string,
  except: number | null,
): Promise<Set<string>> {
  let query = db
    .selectFrom('appointment_blocks')
    .select('block_start')
    .where('interviewer_id', '=', interviewerId)
    .where('block_start', '>=', from)
    .where('block_start', '<', until)
  if (except !== null) query = query.where('appointment_id', '!=', except)
  return new Set((await query.execute()).map((r) => r.block_start))
}

export async function insertBooking(
  db: Executor,
  values: { offer_id: number; interviewer_id: number; starts_at: string; ends_at: string },
  now: string,
): Promise<number> {
  const row = await db
    .insertInto('appointments')
    .values({ ...values, created_at: now, updated_at: now, reminded_at: null })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function moveBooking(
  db: Executor,
  id: number,
  values: { interviewer_id: number; starts_at: string; ends_at: string },
  now: string,
): Promise<void> {
  await db
    .updateTable('appointments')
    .set({ ...values, updated_at: now, reminded_at: null })
    .where('id', '=', id)
    .execute()
}

/** Claims the quarters: a quarter another appointment holds fails the insert (unique violation). */
export async function holdQuarters(db: Executor, appointmentId: number, interviewerId: number, blocks: string[]) {
  await db.deleteFrom('appointment_blocks').where('appointment_id', '=', appointmentId).execute()
  await db
    .insertInto('appointment_blocks')
    .values(
      blocks.map((block_start) => ({ appointment_id: appointmentId, interviewer_id: interviewerId, block_start })),
    )
    .execute()
}

export async function deleteBooking(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('appointment_blocks').where('appointment_id', '=', id).execute()
  await db.deleteFrom('appointments').where('id', '=', id).execute()
}

/** The proposal's interview takes the booked time (cleared again on a cancel that still held it). */
export async function clearInterviewTime(db: Executor, proposalId: number, startsAt: string, now: string) {
  await db
    .updateTable('proposal_interviews')
    .set({ scheduled_for: null, updated_at: now })
    .where('proposal_id', '=', proposalId)
    .where('scheduled_for', '=', startsAt)
    .where('interview_date', 'is', null)
    .execute()
}

/** Booked appointments from `from` on, of one interviewer or (null) of everyone. */
export function listAppointments(db: Executor, interviewerId: number | null, from: string) {
  let query = db
    .selectFrom('appointments as a')
    .innerJoin('appointment_offers as o', 'o.id', 'a.offer_id')
    .select(['a.id', 'a.interviewer_id', 'a.starts_at', 'a.ends_at', 'o.kind', 'o.person_name', 'o.proposal_id'])
    .where('a.ends_at', '>', from)
    .orderBy('a.starts_at')
    .orderBy('a.id')
  if (interviewerId !== null) query = query.where('a.interviewer_id', '=', interviewerId)
  return query.execute()
}

/** Appointments in [from, until) not yet reminded whose offer has an email. */
export function dueReminders(db: Executor, from: string, until: string) {
  return db
    .selectFrom('appointments as a')
    .innerJoin('appointment_offers as o', 'o.id', 'a.offer_id')
    .innerJoin('users as u', 'u.id', 'a.interviewer_id')
    .select(['a.id', 'a.starts_at', 'o.email', 'o.person_name', 'o.kind', 'u.fname', 'u.lname'])
    .where('a.starts_at', '>=', from)
    .where('a.starts_at', '<', until)
    .where('a.reminded_at', 'is', null)
    .where('o.email', 'is not', null)
    .where('o.email', '!=', '')
    .execute()
}

/** One winner: only the run that sets reminded_at queues the reminder. */
export async function claimReminder(db: Executor, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('appointments')
    .set({ reminded_at: now })
    .where('id', '=', id)
    .where('reminded_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}
