import { sql, type Kysely } from 'kysely'
import { dialectOf, withId } from '../dialect.ts'

/**
 * The audit log (docs/api-reference.md §13): one row per change or security event, written
 * in the change's own transaction. No foreign keys: an entry is a record of
 * what happened and outlives whatever it names.
 *
 * `action` compares byte-wise on both databases (PostgreSQL `COLLATE "C"`,
 * SQLite's default BINARY), so a prefix filter (`user.`) is an index range
 * `action >= 'user.' AND action < 'user/'` whatever the server's locale.
 * Every filter walks an index newest first and stops at the page:
 * (at, id) for the unfiltered list and the date range, (actor_id, at, id) and
 * (action, at, id) for who and what; retention deletes a range of (at, id).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const binary = dialectOf(db) === 'postgres' ? sql`varchar(64) collate "C"` : sql`varchar(64)`
  await withId(db, db.schema.createTable('audit_log'))
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('action', binary, (c) => c.notNull())
    .addColumn('target_type', 'varchar(32)')
    .addColumn('target_id', 'integer')
    .addColumn('detail', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').columns(['at', 'id']).execute()
  await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor_id', 'at', 'id']).execute()
  await db.schema.createIndex('audit_log_action_idx').on('audit_log').columns(['action', 'at', 'id']).execute()
}
