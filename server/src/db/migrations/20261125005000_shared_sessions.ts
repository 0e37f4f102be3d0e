import type { Kysely } from 'kysely'

/**
 * Sign-ins on a shared computer (docs/api-reference.md §13): `sessions.shared` marks a
 * session that ends after 30 minutes without activity. `last_used_at`
 * (already kept) is its last activity.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('shared', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute()
}
