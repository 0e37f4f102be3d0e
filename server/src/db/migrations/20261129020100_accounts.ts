import { sql, type Kysely } from 'kysely'
import { sealStakeTable, withId, withStakeId } from '../dialect.ts'

/**
 * Accounts without an administrator in the loop (docs/api-reference.md §16).
 * - `account_tokens` (stake-owned): invitation and password-reset links, kept
 *   only as the SHA-256 of their token (unique across the deployment: an
 *   anonymous request finds the row, then its stake). `used_at` once spent,
 *   `voided_at` once a newer token of the same purpose replaced it. Rows stay
 *   until the user goes: they count the reset mails of the last hour and say
 *   whether an invitation was accepted.
 * - `passkeys` (stake-owned): WebAuthn credentials; the credential id is
 *   unique across the deployment (a sign-in names only the credential).
 * - `webauthn_challenges` (deployment-wide): challenges handed out, kept a
 *   few minutes and spent once (a passkey sign-in has no stake until its
 *   credential is found).
 * - `password_reset_throttle` (deployment-wide): reset requests per client
 *   address per hour.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withStakeId(db, withId(db, db.schema.createTable('account_tokens')))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull().check(sql`purpose in ('invitation', 'password_reset')`))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .addColumn('voided_at', 'varchar(32)')
    .execute()
  await db.schema
    .createIndex('account_tokens_user_idx')
    .on('account_tokens')
    .columns(['stake_id', 'user_id', 'purpose', 'created_at'])
    .execute()
  await sealStakeTable(db, 'account_tokens')

  await withStakeId(db, withId(db, db.schema.createTable('passkeys')))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('credential_id', 'varchar(1024)', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'varchar(200)')
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .execute()
  await db.schema.createIndex('passkeys_user_idx').on('passkeys').columns(['stake_id', 'user_id']).execute()
  await sealStakeTable(db, 'passkeys')

  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull().check(sql`purpose in ('register', 'login')`))
    .addColumn('stake_id', 'integer')
    .addColumn('user_id', 'integer')
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('webauthn_challenges_expiry_idx').on('webauthn_challenges').column('expires_at').execute()

  await db.schema
    .createTable('password_reset_throttle')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('requests', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'varchar(32)', (c) => c.notNull())
    .execute()
}
