import type { Ward } from '@stake/contract'
import type { Executor } from '../../db/types.ts'
import { BISHOP, nameKey } from '../callings/callings.repository.ts'
import { seatsWithKey } from '../callings/seats.repository.ts'

/**
 * Wards with the holder of their Bishop slot (calling key `bishop`, slot_id =
 * ward id). One query for any number of wards.
 */
function wardQuery(db: Executor) {
  return db
    .selectFrom('wards as w')
    .leftJoin(seatsWithKey(db, [BISHOP]).select(['cs.ward_id', 'cs.user_id']).as('b'), (join) =>
      join.onRef('b.ward_id', '=', 'w.id'),
    )
    .select(['w.id', 'w.name', 'w.start_time', 'w.speaking_sunday', 'b.user_id as bishop_id'])
}

type WardRow = { id: number; name: string; start_time: number; speaking_sunday: number; bishop_id: number | null }

/** The one mapper from a ward row to the API shape (docs/api-reference.md §6). */
const toWard = (row: WardRow): Ward => ({
  id: row.id,
  name: row.name,
  bishop_id: row.bishop_id ?? null,
  start_time: row.start_time,
  speaking_sunday: row.speaking_sunday,
})

export async function listWards(db: Executor): Promise<Ward[]> {
  const rows = await wardQuery(db).orderBy('w.id').execute()
  return rows.map(toWard)
}

export async function findWard(db: Executor, id: number): Promise<Ward | undefined> {
  const row = await wardQuery(db).where('w.id', '=', id).executeTakeFirst()
  return row && toWard(row)
}

export function insertWard(
  db: Executor,
  values: { name: string; start_time: number; speaking_sunday?: number; now: string },
) {
  return db
    .insertInto('wards')
    .values({
      name: values.name.trim(),
      name_key: nameKey(values.name),
      start_time: values.start_time,
      speaking_sunday: values.speaking_sunday ?? 1,
      created_at: values.now,
      updated_at: values.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
}

/** `speaking_sunday` omitted keeps the stored value (docs/api-reference.md §13). */
export async function updateWard(
  db: Executor,
  id: number,
  values: { name: string; start_time: number; speaking_sunday?: number; now: string },
) {
  await db
    .updateTable('wards')
    .set({
      name: values.name.trim(),
      name_key: nameKey(values.name),
      start_time: values.start_time,
      ...(values.speaking_sunday === undefined ? {} : { speaking_sunday: values.speaking_sunday }),
      updated_at: values.now,
    })
    .where('id', '=', id)
    .execute()
}

/** Fails with a foreign-key violation while another table refers to the ward. */
export async function deleteWard(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('wards').where('id', '=', id).execute()
}
