import crypto from 'node:crypto'
import { PERMISSIONS } from '@stake/contract'
import type { Kysely } from 'kysely'
import type { DB } from '../../db/schema.ts'
import { isUniqueViolation } from '../../db/database.ts'
import { countUsers, insertUser } from '../users/users.repository.ts'
import { replaceDirectPermissions } from '../users/permissions.repository.ts'
import { randomPassword, type PasswordHasher } from './passwords.ts'
import { withTransaction } from '../../db/transaction.ts'

/**
 * JWT_SECRET when configured; otherwise a secret generated once and kept in
 * the database, so a fresh install works and instances sharing a database
 * agree (docs/api-reference.md §3). Insert-if-absent, then read: the first writer wins.
 */
export async function resolveJwtSecret(db: Kysely<DB>, configured: string | null): Promise<string> {
  if (configured) return configured
  await db
    .insertInto('app_settings')
    .values({ key: 'jwt_secret', value: crypto.randomBytes(48).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute()
  const row = await db
    .selectFrom('app_settings')
    .select('value')
    .where('key', '=', 'jwt_secret')
    .executeTakeFirstOrThrow()
  return row.value
}

/**
 * On an empty database, creates the bootstrap administrator with every
 * permission and the password-change flag set. Returns the generated password
 * (to be printed once) or null when nothing was created or it was configured.
 */
export async function ensureBootstrapAdmin(
  db: Kysely<DB>,
  hasher: PasswordHasher,
  email: string,
  configuredPassword: string | null,
  now: Date,
): Promise<{ created: boolean; generatedPassword: string | null }> {
  if ((await countUsers(db)) > 0) return { created: false, generatedPassword: null }
  const password = configuredPassword ?? randomPassword()
  const password_hash = await hasher.hash(password)
  try {
    await withTransaction(db, async (trx) => {
      const user = await insertUser(trx, {
        email,
        fname: 'Stake',
        lname: 'Administrator',
        password_hash,
        force_password_reset: true,
        now: now.toISOString(),
      })
      await replaceDirectPermissions(trx, user.id, [...PERMISSIONS])
    })
  } catch (error) {
    if (isUniqueViolation(error)) return { created: false, generatedPassword: null } // another instance won
    throw error
  }
  return { created: true, generatedPassword: configuredPassword ? null : password }
}
