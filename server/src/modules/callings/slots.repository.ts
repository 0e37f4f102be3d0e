import type { CallingHistoryEntry, CallingSlot, HeldCalling } from '@stake/contract'
import type { Executor } from '../../db/types.ts'
import { seatsOf } from './seats.repository.ts'

/**
 * Slots of a calling (docs/api-reference.md §5): numbered 1..max_slots (a Bishop slot by its
 * ward's id), filled by one conditional write, with the history of holdings.
 */
export interface SlotRow {
  calling_id: number
  slot_id: number
  user_id: number | null
  ward_id: number | null
  fname: string | null
  lname: string | null
  set_apart: string | null
}

/**
 * The one mapper from slot rows to the API shape. Anonymous callers see the
 * holder's name only: no user id (docs/api-reference.md §5, "slot holders as names only").
 */
export function toSlot(row: SlotRow, anonymous: boolean): CallingSlot {
  const filled = row.user_id !== null
  const user = !filled
    ? null
    : anonymous
      ? { fname: row.fname ?? '', lname: row.lname ?? '' }
      : { id: row.user_id!, fname: row.fname ?? '', lname: row.lname ?? '' }
  return {
    slot_id: row.slot_id,
    filled,
    user_id: filled && !anonymous ? row.user_id : null,
    user,
    ward_id: row.ward_id ?? null,
    // When the holder was set apart is about the person: signed-in callers only.
    set_apart: filled && !anonymous ? (row.set_apart ?? null) : null,
  }
}

export function slotQuery(db: Executor) {
  return db
    .selectFrom('calling_slots as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .select(['s.calling_id', 's.slot_id', 's.user_id', 's.ward_id', 's.set_apart', 'u.fname', 'u.lname'])
}

export function findSlot(db: Executor, callingId: number, slotId: number): Promise<SlotRow | undefined> {
  return slotQuery(db).where('s.calling_id', '=', callingId).where('s.slot_id', '=', slotId).executeTakeFirst()
}

/** Highest filled slot number of a calling, or 0. */
export async function highestFilledSlot(db: Executor, callingId: number): Promise<number> {
  const row = await db
    .selectFrom('calling_slots')
    .select((eb) => eb.fn.max('slot_id').as('top'))
    .where('calling_id', '=', callingId)
    .where('user_id', 'is not', null)
    .executeTakeFirst()
  return Number(row?.top ?? 0)
}

/** Makes slots 1..count exist (existing rows are kept as they are). */
export async function ensureSlots(db: Executor, callingId: number, count: number): Promise<void> {
  if (count < 1) return
  await db
    .insertInto('calling_slots')
    .values(Array.from({ length: count }, (_, i) => ({ calling_id: callingId, slot_id: i + 1 })))
    .onConflict((oc) => oc.columns(['calling_id', 'slot_id']).doNothing())
    .execute()
}

/** A ward's Bishop slot: numbered by the ward's id (docs/api-reference.md §6). */
export async function insertWardSlot(db: Executor, callingId: number, wardId: number): Promise<void> {
  await db.insertInto('calling_slots').values({ calling_id: callingId, slot_id: wardId, ward_id: wardId }).execute()
}

/** Removes the empty slots numbered above `max`; filled ones are never touched. */
export async function deleteEmptySlotsAbove(db: Executor, callingId: number, max: number): Promise<void> {
  await db
    .deleteFrom('calling_slots')
    .where('calling_id', '=', callingId)
    .where('slot_id', '>', max)
    .where('user_id', 'is', null)
    .execute()
}

export async function countSlots(db: Executor, callingId: number): Promise<number> {
  const row = await db
    .selectFrom('calling_slots')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('calling_id', '=', callingId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** The slots a user holds, by calling and slot (GET /auth/me). */
export async function listHeldSlots(db: Executor, userId: number): Promise<HeldCalling[]> {
  return (await seatsOf(db, [userId])).map((h) => ({
    calling_id: h.calling_id,
    name: h.name,
    key: h.key ?? null,
    slot_id: h.slot_id,
    ward_id: h.ward_id ?? null,
  }))
}

/**
 * Fills an empty slot: one conditional write, so of two concurrent fills one
 * changes a row and the other none. A second slot of the same calling for the
 * same user fails on the unique (calling_id, user_id) key. `setApart` is the
 * new holder's set apart when known (an LCR report says it).
 */
export async function fillEmptySlot(
  db: Executor,
  callingId: number,
  slotId: number,
  userId: number,
  now: string,
  setApart: string | null = null,
): Promise<boolean> {
  const result = await db
    .updateTable('calling_slots')
    .set({ user_id: userId, filled_at: now, set_apart: setApart })
    .where('calling_id', '=', callingId)
    .where('slot_id', '=', slotId)
    .where('user_id', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/** Empties a slot if (and only if) `holderId` still holds it. */
export async function vacateSlot(db: Executor, callingId: number, slotId: number, holderId: number): Promise<boolean> {
  const result = await db
    .updateTable('calling_slots')
    .set({ user_id: null, filled_at: null, set_apart: null })
    .where('calling_id', '=', callingId)
    .where('slot_id', '=', slotId)
    .where('user_id', '=', holderId)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

export async function openHistory(
  db: Executor,
  callingId: number,
  slotId: number,
  userId: number,
  now: string,
): Promise<void> {
  await db
    .insertInto('calling_slot_history')
    .values({ calling_id: callingId, slot_id: slotId, user_id: userId, from_at: now, to_at: null })
    .execute()
}

export async function closeHistory(
  db: Executor,
  callingId: number,
  slotId: number,
  userId: number,
  now: string,
): Promise<void> {
  await db
    .updateTable('calling_slot_history')
    .set({ to_at: now })
    .where('calling_id', '=', callingId)
    .where('slot_id', '=', slotId)
    .where('user_id', '=', userId)
    .where('to_at', 'is', null)
    .execute()
}

export async function listHistory(db: Executor, callingId: number): Promise<CallingHistoryEntry[]> {
  const rows = await db
    .selectFrom('calling_slot_history as h')
    .innerJoin('users as u', 'u.id', 'h.user_id')
    .select(['h.id', 'h.slot_id', 'h.user_id', 'h.from_at', 'h.to_at', 'u.fname', 'u.lname'])
    .where('h.calling_id', '=', callingId)
    .orderBy('h.from_at')
    .orderBy('h.id')
    .execute()
  return rows.map((r) => ({
    id: r.id,
    slot_id: r.slot_id,
    user_id: r.user_id,
    user: { id: r.user_id, fname: r.fname, lname: r.lname },
    from: r.from_at,
    to: r.to_at ?? null,
  }))
}

export function findActiveUser(db: Executor, id: number) {
  return db.selectFrom('users').select(['id', 'active']).where('id', '=', id).executeTakeFirst()
}

/** The users currently seated in a calling's slots. */
export async function holderIds(db: Executor, callingId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('calling_slots')
    .select('user_id')
    .where('calling_id', '=', callingId)
    .where('user_id', 'is not', null)
    .execute()
  return rows.map((r) => r.user_id!)
}

/** Records the holder's set apart on a seat they still hold (an LCR report says it). */
export async function setSlotSetApart(
  db: Executor,
  callingId: number,
  slotId: number,
  holderId: number,
  setApart: string,
): Promise<boolean> {
  const result = await db
    .updateTable('calling_slots')
    .set({ set_apart: setApart })
    .where('calling_id', '=', callingId)
    .where('slot_id', '=', slotId)
    .where('user_id', '=', holderId)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}
