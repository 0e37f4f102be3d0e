import type { Kysely } from 'kysely'

/**
 * Sign-in hardening (docs/api-reference.md §10):
 * - S4: `login_throttle.allowed`, whether the attempt that last wrote the row
 *   may go on to the password check. Attempts are counted before the check,
 *   in one upsert whose RETURNING carries this verdict, so parallel attempts
 *   cannot all slip past the limit.
 * - S6: `session_retired_tokens`, the hashes of every refresh secret a
 *   session rotated out. Only these count as reuse (and revoke the session);
 *   a secret the session never issued changes nothing.
 * - Issue 19: `sessions.rotation_salt`, the random salt of the last rotation;
 *   the next secret is HMAC(salt, presented secret), so a client whose answer
 *   was lost can be given the same cookie again within the grace window.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('login_throttle')
    .addColumn('allowed', 'integer', (c) => c.notNull().defaultTo(1))
    .execute()
  await db.schema.alterTable('sessions').addColumn('rotation_salt', 'varchar(64)').execute()
  await db.schema
    .createTable('session_retired_tokens')
    .addColumn('session_id', 'varchar(64)', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('retired_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('session_retired_tokens_pk', ['session_id', 'token_hash'])
    .execute()
}
