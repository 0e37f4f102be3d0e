import type { Kysely } from 'kysely'

/**
 * Limits that hold across instances (docs/SECURITY.md, "Limits kept in the
 * database"):
 * - `rate_limits` (deployment-wide): one fixed window per (bucket, key) — a
 *   client address, a booking link, a user, a stake's email-oracle budget —
 *   counted by one atomic upsert (modules/limits/limits.repository.ts). A row
 *   whose window ended decides nothing; housekeeping deletes it.
 * - `password_reset_throttle` goes: the reset requests per address are one
 *   bucket of `rate_limits` now (its rows are windows of at most an hour).
 * - `audit_log.anonymous_actor`: who acted when nobody signed in did, by
 *   kind (`booking_link`); null otherwise.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('bucket', 'varchar(32)', (c) => c.notNull())
    .addColumn('key', 'varchar(128)', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('window_end', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limits_pkey', ['bucket', 'key'])
    .execute()
  await db.schema.createIndex('rate_limits_window_end_idx').on('rate_limits').column('window_end').execute()
  await db.schema.dropTable('password_reset_throttle').execute()
  await db.schema.alterTable('audit_log').addColumn('anonymous_actor', 'varchar(32)').execute()
}
