import type { Kysely } from 'kysely'
import type { DB } from '../../db/schema.ts'

/** Every stake's id, oldest first (the `stakes` table belongs to no stake). */
export async function stakeIds(db: Kysely<DB>): Promise<number[]> {
  const rows = await db.selectFrom('stakes').select('id').orderBy('id').execute()
  return rows.map((r) => r.id)
}
