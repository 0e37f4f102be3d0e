import type { Executor } from '../../db/types.ts'
import { listSeats } from '../speaking/speaking.repository.ts'

export { listSeats }

/** Every stewardship row with its ward's name (null for an organization), in seat then saved order. */
export function listRows(db: Executor) {
  return db
    .selectFrom('stewardships as s')
    .leftJoin('wards as w', 'w.id', 's.ward_id')
    .select(['s.slot_id', 's.ward_id', 'w.name as ward_name', 's.organization', 's.position'])
    .orderBy('s.slot_id')
    .orderBy('s.position')
    .execute()
}

export function existingWards(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([])
  return db
    .selectFrom('wards')
    .select(['id', 'name'])
    .where('id', 'in', [...ids])
    .execute()
}

export interface StewardshipInsert {
  slot_id: number
  ward_id: number | null
  organization: string | null
  organization_key: string | null
  position: number
}

/** Replaces the stake's whole assignment (inside the caller's transaction). */
export async function replaceAll(trx: Executor, rows: readonly StewardshipInsert[]): Promise<void> {
  await trx.deleteFrom('stewardships').execute()
  if (rows.length > 0)
    await trx
      .insertInto('stewardships')
      .values([...rows])
      .execute()
}
