import crypto from 'node:crypto'
import type { Executor } from '../../db/types.ts'
import type { AccountTokenPurpose } from './accounts.tables.ts'

/** 256 random bits, URL-safe (43 characters); only its SHA-256 is stored. */
export const newLinkToken = (): string => crypto.randomBytes(32).toString('base64url')
export const hashLinkToken = (token: string): string => crypto.hash('sha256', token, 'hex')
/** The shape every link token has; anything else is unknown without a query. */
export const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/

/** Ends the user's unspent tokens of one purpose (a newer one replaces them; a password change ends resets). */
export async function voidTokens(db: Executor, userId: number, purpose: AccountTokenPurpose, now: string) {
  await db
    .updateTable('account_tokens')
    .set({ voided_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('voided_at', 'is', null)
    .execute()
}

export async function insertToken(
  db: Executor,
  row: { user_id: number; purpose: AccountTokenPurpose; token_hash: string; created_at: string; expires_at: string },
) {
  await db.insertInto('account_tokens').values(row).execute()
}

/**
 * A live token by its hash, with its user, in whatever stake (the caller runs
 * this across stakes and then switches to `stake_id`). Spent, voided or
 * expired tokens and tokens of deactivated users are not found.
 */
export function findLiveToken(db: Executor, tokenHash: string, purpose: AccountTokenPurpose, now: string) {
  return db
    .selectFrom('account_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.id', 't.user_id', 't.stake_id', 'u.email', 'u.fname', 'u.lname'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.purpose', '=', purpose)
    .where('t.used_at', 'is', null)
    .where('t.voided_at', 'is', null)
    .where('t.expires_at', '>', now)
    .where('u.active', '=', true)
    .where('u.email', 'is not', null)
    .executeTakeFirst()
}

/** Spends a token once: true for the one request that did (the only winner). */
export async function spendToken(db: Executor, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('voided_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** How many tokens of a purpose the user got since `since` (reset mails per hour). */
export async function countTokensSince(db: Executor, userId: number, purpose: AccountTokenPurpose, since: string) {
  const row = await db
    .selectFrom('account_tokens')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Invitations sent and not accepted (at most one live per user: a new one voids the old). */
export function listPendingInvitations(db: Executor) {
  return db
    .selectFrom('account_tokens')
    .select(['user_id', 'created_at', 'expires_at'])
    .where('purpose', '=', 'invitation')
    .where('used_at', 'is', null)
    .where('voided_at', 'is', null)
    .orderBy('user_id')
    .execute()
}
