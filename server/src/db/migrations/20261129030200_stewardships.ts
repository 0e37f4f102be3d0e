import { sql, type Kysely } from 'kysely'
import { sealStakeTable, withId, withStakeId } from '../dialect.ts'

/**
 * High-council stewardships (docs/api-reference.md §18): one row per ward or
 * stake organization a High Councilor seat oversees. Rows name the seat
 * (`slot_id` of the High Councilor calling), not its holder, so a
 * stewardship stays with the seat when the holder changes. A ward has one
 * steward at most (the unique key decides between two saves); a ward's rows
 * go with the ward.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withStakeId(db, withId(db, db.schema.createTable('stewardships')))
    .addColumn('slot_id', 'integer', (c) => c.notNull())
    .addColumn('ward_id', 'integer', (c) => c.references('wards.id').onDelete('cascade'))
    .addColumn('organization', 'varchar(100)')
    .addColumn('organization_key', 'varchar(100)')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addCheckConstraint(
      'stewardships_one_thing_ck',
      sql`(ward_id IS NULL AND organization IS NOT NULL AND organization_key IS NOT NULL) OR (ward_id IS NOT NULL AND organization IS NULL AND organization_key IS NULL)`,
    )
    .addUniqueConstraint('stewardships_ward_uq', ['stake_id', 'ward_id'])
    .addUniqueConstraint('stewardships_organization_uq', ['stake_id', 'slot_id', 'organization_key'])
    .execute()
  await sealStakeTable(db, 'stewardships')
}
