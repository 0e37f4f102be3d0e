import type { Kysely } from 'kysely'
import { dialectOf } from '../dialect.ts'

/**
 * `name_key` is `name.trim().toLowerCase()`, and lower-casing can lengthen a
 * string: 'İ' (U+0130) becomes 'i̇' (two characters). A valid 100-character
 * name could therefore not be stored on PostgreSQL (a 500). No character
 * lower-cases to more than two, so 200 always fits. SQLite does not enforce
 * varchar lengths: nothing to do there.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return
  for (const table of ['callings', 'wards']) {
    await db.schema
      .alterTable(table)
      .alterColumn('name_key', (column) => column.setDataType('varchar(200)'))
      .execute()
  }
}
