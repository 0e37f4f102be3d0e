import { sql, type Kysely } from 'kysely'

/**
 * The speaking calendar feed (docs/api-reference.md §13).
 * - `wards.speaking_sunday`: which Sunday of the month the ward hears its high
 *   councilor (1–5; 5 means the last Sunday when a month has only four).
 * - `speaking_feeds`: one secret feed address per user, kept only as the
 *   SHA-256 hash of its token; a new token replaces the row (rotation), a
 *   deleted row is a revoked feed. The user's deletion takes the feed along.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('wards')
    .addColumn('speaking_sunday', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`speaking_sunday >= 1 AND speaking_sunday <= 5`),
    )
    .execute()

  await db.schema
    .createTable('speaking_feeds')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute()
}
