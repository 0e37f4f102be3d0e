import { sql, type Kysely } from 'kysely'

/**
 * Signup codes (docs/api-reference.md §14): the operator's `stake
 * signup-code` makes one; `POST /stakes` with it creates a stake. Only the
 * code's SHA-256 is kept. Deployment-wide: a code belongs to no stake (not in
 * stake-scope.ts's STAKE_TABLES, no row-level security). A used-up code keeps
 * its row (`uses_left` 0): while any row exists the signup route answers.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('signup_codes')
    .addColumn('code_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('uses_left', 'integer', (c) => c.notNull().check(sql`uses_left >= 0`))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute()
}
