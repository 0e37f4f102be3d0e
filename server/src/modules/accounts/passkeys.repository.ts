import type { Passkey } from '@stake/contract'
import type { Executor } from '../../db/types.ts'
import type { PasskeysTable } from './accounts.tables.ts'
import type { Selectable } from 'kysely'

type PasskeyRow = Selectable<PasskeysTable>

export const toPasskey = (row: Pick<PasskeyRow, 'id' | 'name' | 'created_at' | 'last_used_at'>): Passkey => ({
  id: row.id,
  name: row.name,
  created_at: row.created_at,
  last_used_at: row.last_used_at,
})

export function listUserPasskeys(db: Executor, userId: number) {
  return db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('id').execute()
}

export function insertPasskey(
  db: Executor,
  row: Omit<PasskeyRow, 'id' | 'stake_id' | 'counter' | 'last_used_at'> & { counter: number },
) {
  return db.insertInto('passkeys').values(row).returningAll().executeTakeFirstOrThrow()
}

export function renamePasskey(db: Executor, userId: number, id: number, name: string) {
  return db
    .updateTable('passkeys')
    .set({ name })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst()
}

/** The removed passkey's name, or undefined when the user has none with this id. */
export async function deletePasskey(db: Executor, userId: number, id: number): Promise<string | undefined> {
  const row = await db
    .deleteFrom('passkeys')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning('name')
    .executeTakeFirst()
  return row?.name
}

/** A credential and its user, in whatever stake (the caller runs this across stakes). */
export function findCredential(db: Executor, credentialId: string) {
  return db
    .selectFrom('passkeys as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select([
      'p.id',
      'p.stake_id',
      'p.user_id',
      'p.credential_id',
      'p.public_key',
      'p.counter',
      'p.transports',
      'u.email_key',
      'u.active',
    ])
    .where('p.credential_id', '=', credentialId)
    .executeTakeFirst()
}

/** Moves the counter on from the value read (a cloned authenticator racing the real one loses). */
export async function recordUse(db: Executor, id: number, from: number, to: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('passkeys')
    .set({ counter: to, last_used_at: now })
    .where('id', '=', id)
    .where('counter', '=', from)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Hands out a challenge (kept hashed, briefly); expired ones go at the same time. */
export async function saveChallenge(
  db: Executor,
  row: {
    challenge_hash: string
    purpose: 'register' | 'login'
    stake_id: number | null
    user_id: number | null
    expires_at: string
  },
  now: string,
): Promise<void> {
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute()
  await db.insertInto('webauthn_challenges').values(row).execute()
}

/** Spends a challenge once: true for the one request that presented it while it lived, for this purpose and user. */
export async function spendChallenge(
  db: Executor,
  challengeHash: string,
  purpose: 'register' | 'login',
  owner: { stake_id: number; user_id: number } | null,
  now: string,
): Promise<boolean> {
  let query = db
    .deleteFrom('webauthn_challenges')
    .where('challenge_hash', '=', challengeHash)
    .where('purpose', '=', purpose)
    .where('expires_at', '>', now)
  if (owner) query = query.where('stake_id', '=', owner.stake_id).where('user_id', '=', owner.user_id)
  const result = await query.executeTakeFirst()
  return Number(result.numDeletedRows) === 1
}
