import { sql, type Kysely } from 'kysely'
import { sealStakeTable, withId, withStakeId } from '../dialect.ts'

/**
 * Imports of LCR reports (docs/api-reference.md §15): one row per preview,
 * private to its importer (`created_by`), gone after `expires_at` (24 hours).
 * `rows` holds the report's rows as the service keeps them — name, email,
 * phone, calling, organization, sustained date — never gender, age or birth
 * date, which are dropped while the report is read. `preview` is the
 * computed answer (ignored columns, summary, changes, problems), kept so that
 * apply can tell whether the stake changed since (409 stale_import).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, withStakeId(db, db.schema.createTable('imports')))
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull().check(sql`kind IN ('members', 'callings')`))
    .addColumn('ward_id', 'integer', (c) => c.references('wards.id').onDelete('cascade'))
    .addColumn('release_missing', 'boolean', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().check(sql`status IN ('preview', 'applied')`))
    .addColumn('rows', 'text', (c) => c.notNull())
    .addColumn('preview', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('applied_at', 'varchar(32)')
    .execute()
  await sealStakeTable(db, 'imports')
  // The hourly purge of expired previews.
  await db.schema.createIndex('imports_expires_idx').on('imports').column('expires_at').execute()
}
