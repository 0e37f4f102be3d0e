import { sql, type Kysely, type Selectable } from 'kysely'
import type { Calling, Permission } from '@stake/contract'
import type { Dialect } from '../../db/database.ts'
import type { DB } from '../../db/schema.ts'
import type { CallingsTable } from './callings.tables.ts'
import type { Executor } from '../../db/types.ts'
import { containsPattern } from '../../db/like.ts'
import { sortPermissions, toPermissionSet } from '../users/permissions.repository.ts'
import {
  deleteEmptySlotsAbove,
  ensureSlots,
  highestFilledSlot,
  slotQuery,
  toSlot,
  type SlotRow,
} from './slots.repository.ts'
import { withTransaction } from '../../db/transaction.ts'

export type CallingRow = Selectable<CallingsTable>

export const nameKey = (name: string): string => name.trim().toLowerCase()

export function toCalling(row: CallingRow, permissions: Permission[], slots: SlotRow[], anonymous: boolean): Calling {
  return {
    id: row.id,
    name: row.name,
    key: row.key ?? null,
    is_public: Boolean(row.is_public),
    system_defined: Boolean(row.system_defined),
    max_slots: row.max_slots,
    permissions,
    slots: slots.map((s) => toSlot(s, anonymous)),
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export function findCalling(db: Executor, id: number) {
  return db.selectFrom('callings').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findCallingByKey(db: Executor, key: string) {
  return db.selectFrom('callings').selectAll().where('key', '=', key).executeTakeFirst()
}

/**
 * Reads a calling and, on PostgreSQL, locks its row: `share` for slot fills
 * and releases (which may run side by side; the slot row decides the winner),
 * `update` for changes to the calling itself (max_slots, delete, ward slots),
 * which must not interleave with a fill. SQLite serialises writers anyway.
 */
export function lockCalling(db: Executor, id: number, dialect: Dialect, mode: 'share' | 'update') {
  let query = db.selectFrom('callings').selectAll().where('id', '=', id)
  if (dialect === 'postgres') query = mode === 'update' ? query.forUpdate() : query.forShare()
  return query.executeTakeFirst()
}

export interface CallingFilter {
  q?: string
  is_public?: boolean
  system_defined?: boolean
  vacant?: boolean
}

function filtered(db: Executor, filter: CallingFilter) {
  let query = db.selectFrom('callings as c')
  if (filter.is_public !== undefined) query = query.where('c.is_public', '=', filter.is_public)
  if (filter.system_defined !== undefined) query = query.where('c.system_defined', '=', filter.system_defined)
  const q = filter.q?.trim().toLowerCase()
  if (q) query = query.where('c.name_key', 'like', containsPattern(q))
  const vacant = filter.vacant
  if (vacant !== undefined) {
    query = query.where((eb) => {
      const empty = eb.exists(
        eb
          .selectFrom('calling_slots as s')
          .select(sql.lit(1).as('one'))
          .whereRef('s.calling_id', '=', 'c.id')
          .where('s.user_id', 'is', null),
      )
      return vacant ? empty : eb.not(empty)
    })
  }
  return query
}

export async function listCallings(
  db: Executor,
  filter: CallingFilter,
  sort: 'name' | 'id',
  limit: number,
  offset: number,
): Promise<{ rows: CallingRow[]; total: number }> {
  let page = filtered(db, filter).selectAll('c')
  page = sort === 'id' ? page.orderBy('c.id') : page.orderBy('c.name_key').orderBy('c.id')
  const [rows, total] = await Promise.all([
    page.limit(limit).offset(offset).execute(),
    filtered(db, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(total.n) }
}

/** Grants and slots (with holders' names) of several callings: two queries whatever the count. */
export async function loadDetails(db: Executor, callingIds: number[]) {
  const permissions = new Map<number, Permission[]>()
  const slots = new Map<number, SlotRow[]>()
  for (const id of callingIds) {
    permissions.set(id, [])
    slots.set(id, [])
  }
  if (callingIds.length === 0) return { permissions, slots }
  const [grantRows, slotRows] = await Promise.all([
    db
      .selectFrom('calling_permissions')
      .select(['calling_id', 'permission'])
      .where('calling_id', 'in', callingIds)
      .execute(),
    slotQuery(db).where('s.calling_id', 'in', callingIds).orderBy('s.calling_id').orderBy('s.slot_id').execute(),
  ])
  const grouped = new Map<number, string[]>()
  for (const g of grantRows) grouped.set(g.calling_id, [...(grouped.get(g.calling_id) ?? []), g.permission])
  for (const [id, names] of grouped) permissions.set(id, sortPermissions(toPermissionSet(names)))
  for (const s of slotRows) slots.get(s.calling_id)?.push(s)
  return { permissions, slots }
}

export async function callingPermissions(db: Executor, callingId: number): Promise<Permission[]> {
  const rows = await db
    .selectFrom('calling_permissions')
    .select('permission')
    .where('calling_id', '=', callingId)
    .execute()
  return sortPermissions(toPermissionSet(rows.map((r) => r.permission)))
}

export async function replaceCallingPermissions(
  db: Executor,
  callingId: number,
  permissions: Permission[],
): Promise<void> {
  await db.deleteFrom('calling_permissions').where('calling_id', '=', callingId).execute()
  if (permissions.length > 0) {
    await db
      .insertInto('calling_permissions')
      .values(permissions.map((permission) => ({ calling_id: callingId, permission })))
      .execute()
  }
}

export function insertCalling(
  db: Executor,
  values: { name: string; is_public: boolean; max_slots: number; now: string },
) {
  return db
    .insertInto('callings')
    .values({
      name: values.name.trim(),
      name_key: nameKey(values.name),
      key: null,
      is_public: values.is_public,
      system_defined: false,
      max_slots: values.max_slots,
      created_at: values.now,
      updated_at: values.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** A system calling a new stake starts with (stakes.service.ts SYSTEM_CALLINGS): its key is stable. */
export async function insertSystemCalling(
  db: Executor,
  calling: { key: string; name: string; slots: number },
  now: string,
): Promise<number> {
  const { id } = await db
    .insertInto('callings')
    .values({
      name: calling.name,
      name_key: nameKey(calling.name),
      key: calling.key,
      is_public: true,
      system_defined: true,
      max_slots: calling.slots,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return id
}

export function updateCalling(
  db: Executor,
  id: number,
  values: { name: string; is_public: boolean; max_slots: number; now: string },
) {
  return db
    .updateTable('callings')
    .set({
      name: values.name.trim(),
      name_key: nameKey(values.name),
      is_public: values.is_public,
      max_slots: values.max_slots,
      updated_at: values.now,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function touchCalling(db: Executor, id: number, now: string): Promise<void> {
  await db.updateTable('callings').set({ updated_at: now }).where('id', '=', id).execute()
}

/**
 * Deletes a user-made calling unless one of its slots is filled — one
 * statement, so a fill cannot slip in between the check and the delete.
 */
export async function deleteUnfilledCalling(db: Executor, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('callings')
    .where('id', '=', id)
    .where('system_defined', '=', false)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('calling_slots')
            .select(sql.lit(1).as('one'))
            .where('calling_id', '=', id)
            .where('user_id', 'is not', null),
        ),
      ),
    )
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

export async function setMaxSlots(db: Executor, callingId: number, maxSlots: number): Promise<void> {
  await db.updateTable('callings').set({ max_slots: maxSlots }).where('id', '=', callingId).execute()
}

export const HIGH_COUNCILOR = 'high_councilor'
export const BISHOP = 'bishop'

/**
 * Brings the High Councilor calling to `seats` slots (HIGH_COUNCIL_SEATS),
 * at start-up. Missing slots 1..seats are added; when the number goes down,
 * only empty trailing slots are removed: a filled seat above the new number
 * stays (with the empty ones below it), so nobody is unseated by a restart
 * and slot numbers stay 1..max_slots. Idempotent; safe for several instances
 * starting at once (the calling row is locked on PostgreSQL).
 */
export async function syncHighCouncilSeats(db: Kysely<DB>, dialect: Dialect, seats: number): Promise<void> {
  await withTransaction(db, (trx) => syncHighCouncilSeatsIn(trx, dialect, seats))
}

/** The same, inside the caller's transaction. */
export async function syncHighCouncilSeatsIn(trx: Executor, dialect: Dialect, seats: number): Promise<void> {
  const calling = await findCallingByKey(trx, HIGH_COUNCILOR)
  if (!calling) return
  await lockCalling(trx, calling.id, dialect, 'update')
  const top = Math.max(seats, await highestFilledSlot(trx, calling.id))
  await deleteEmptySlotsAbove(trx, calling.id, top)
  await ensureSlots(trx, calling.id, seats)
  if (calling.max_slots !== top) await setMaxSlots(trx, calling.id, top)
}
