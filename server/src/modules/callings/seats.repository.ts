import type { Executor } from '../../db/types.ts'

/**
 * Who holds which seat: a calling's slot (`calling_slots`) seen through the
 * calling's system key (`callings.key`: bishop, high_councilor, the
 * presidency's). Every module that asks it asks here, so the join is written
 * once; the queries are returned unexecuted where a caller narrows or
 * selects further.
 */

/** Every seat of the callings with these keys, filled or not: `cs` the slot, `c` the calling. */
export const seatsWithKey = (db: Executor, keys: readonly string[]) =>
  db
    .selectFrom('calling_slots as cs')
    .innerJoin('callings as c', 'c.id', 'cs.calling_id')
    .where('c.key', 'in', [...keys])

/** The active users holding a seat of one of `keys` (`u`), one row per seat: select and narrow further. */
export const holdersOf = (db: Executor, keys: readonly string[]) =>
  seatsWithKey(db, keys).innerJoin('users as u', 'u.id', 'cs.user_id').where('u.active', '=', true)

/** The seats these users hold (of `keys` only, when given), in calling and slot order. */
export async function seatsOf(db: Executor, userIds: readonly number[], keys?: readonly string[]) {
  if (userIds.length === 0) return []
  return db
    .selectFrom('calling_slots as cs')
    .innerJoin('callings as c', 'c.id', 'cs.calling_id')
    .select(['cs.user_id', 'cs.calling_id', 'cs.slot_id', 'cs.ward_id', 'c.key', 'c.name'])
    .where('cs.user_id', 'in', [...userIds])
    .$if(keys !== undefined, (q) => q.where('c.key', 'in', [...keys!]))
    .orderBy('cs.calling_id')
    .orderBy('cs.slot_id')
    .execute()
}

/** The slot a user holds in a calling, if any. */
export const heldSlot = (db: Executor, callingId: number, userId: number) =>
  db
    .selectFrom('calling_slots')
    .select('slot_id')
    .where('calling_id', '=', callingId)
    .where('user_id', '=', userId)
    .executeTakeFirst()

/** The calling's first empty slot; for a Bishop calling, the slot of `wardId`. */
export const vacantSlot = (db: Executor, callingId: number, wardId: number | null) =>
  db
    .selectFrom('calling_slots')
    .select('slot_id')
    .where('calling_id', '=', callingId)
    .where('user_id', 'is', null)
    .$if(wardId !== null, (q) => q.where('ward_id', '=', wardId))
    .orderBy('slot_id')
    .executeTakeFirst()
