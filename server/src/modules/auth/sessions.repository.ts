import type { Kysely } from 'kysely'
import type { Executor } from '../../db/types.ts'
import type { DB } from '../../db/schema.ts'
import type { Dialect } from '../../db/database.ts'
import { effectivePermissionList } from '../users/permissions.repository.ts'

export interface NewSession {
  id: string
  user_id: number
  token_hash: string
  created_at: string
  expires_at: string
  last_used_at: string
  user_agent: string | null
  ip: string | null
  shared: boolean
}

export async function insertSession(db: Executor, session: NewSession): Promise<void> {
  await db.insertInto('sessions').values(session).execute()
}

/** The session a refresh cookie names, with whether its user is active. */
export function findSessionForRefresh(db: Executor, id: string) {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id',
      's.user_id',
      's.token_hash',
      's.previous_token_hash',
      's.rotated_at',
      's.rotation_salt',
      's.expires_at',
      's.shared',
      's.last_used_at',
      'u.active',
    ])
    .where('s.id', '=', id)
    .executeTakeFirst()
}

/**
 * The per-request check (docs/api-reference.md §3) in one query on the sessions primary
 * key: the session exists, belongs to the token's user and has not expired
 * (nor, on a shared computer, gone idle since `idleCutoff`, docs/api-reference.md §13),
 * the user is active; with the user's record and effective permissions (one
 * statement, so one snapshot). Nothing is kept between requests, so logout,
 * a password change, deactivation and a withdrawn grant stop the next request.
 */
/** The stake of a session (looked up across stakes by a refresh). */
export async function findSessionStake(db: Kysely<DB>, id: string): Promise<number | undefined> {
  const row = await db.selectFrom('sessions').select('stake_id').where('id', '=', id).executeTakeFirst()
  return row?.stake_id
}

export function findSessionAccess(
  db: Kysely<DB>,
  dialect: Dialect,
  sessionId: string,
  userId: number,
  now: string,
  idleCutoff: string,
) {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.shared', 's.last_used_at'])
    .select([
      'u.id',
      'u.stake_id',
      'u.email',
      'u.fname',
      'u.lname',
      'u.phone',
      'u.active',
      'u.force_password_reset',
      'u.ward_id',
      'u.language',
      'u.created_at',
      'u.updated_at',
    ])
    .select((eb) => effectivePermissionList(db, dialect, eb.ref('u.id')).as('permissions'))
    .where('s.id', '=', sessionId)
    .where('s.user_id', '=', userId)
    .where('s.expires_at', '>', now)
    .where((eb) => eb.or([eb('s.shared', '=', false), eb('s.last_used_at', '>', idleCutoff)]))
    .where('u.active', '=', true)
    .executeTakeFirst()
}

/**
 * Records activity on a shared-computer session (docs/api-reference.md §13): a
 * conditional write that happens at most once per `staleBefore` window, and
 * never revives a session that has already gone idle.
 */
export async function touchSharedSession(
  db: Executor,
  id: string,
  now: string,
  staleBefore: string,
  idleCutoff: string,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where('shared', '=', true)
    .where('last_used_at', '<', staleBefore)
    .where('last_used_at', '>', idleCutoff)
    .execute()
}

/**
 * Rotation is a conditional write: it succeeds only while `currentHash` is
 * still the session's token, the session has not expired (nor, on a shared
 * computer, gone idle since `idleCutoff`) and its user is active, so two
 * concurrent refreshes cannot both rotate. The usual refresh is
 * this write (and the retired hash's row, in the caller's transaction);
 * anything else is sorted out by reading the session. Answers the rotated
 * session's user and expiry, or undefined when nothing was rotated.
 */
export async function rotateSessionToken(
  db: Executor,
  id: string,
  currentHash: string,
  next: { hash: string; salt: string },
  now: string,
  idleCutoff: string,
): Promise<{ user_id: number; expires_at: string; shared: boolean } | undefined> {
  const rotated = await db
    .updateTable('sessions')
    .set({
      token_hash: next.hash,
      previous_token_hash: currentHash,
      rotation_salt: next.salt,
      rotated_at: now,
      last_used_at: now,
    })
    .where('id', '=', id)
    .where('token_hash', '=', currentHash)
    .where('expires_at', '>', now)
    .where((eb) => eb.or([eb('shared', '=', false), eb('last_used_at', '>', idleCutoff)]))
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('users as u').select('u.id').whereRef('u.id', '=', 'sessions.user_id').where('u.active', '=', true),
      ),
    )
    .returning(['user_id', 'expires_at', 'shared'])
    .executeTakeFirst()
  // Kept for the session's life: presenting it again is reuse (S6).
  if (rotated)
    await db
      .insertInto('session_retired_tokens')
      .values({ session_id: id, token_hash: currentHash, retired_at: now })
      .execute()
  return rotated && { user_id: rotated.user_id, expires_at: rotated.expires_at, shared: Boolean(rotated.shared) }
}

/** Whether this session issued the secret with this hash and rotated it out (S6). */
export async function isRetiredToken(db: Executor, sessionId: string, tokenHash: string): Promise<boolean> {
  const row = await db
    .selectFrom('session_retired_tokens')
    .select('session_id')
    .where('session_id', '=', sessionId)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst()
  return row !== undefined
}

export async function deleteSession(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute()
}

export async function deleteUserSessions(db: Executor, userId: number, exceptId: string | null = null): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId)
  if (exceptId !== null) query = query.where('id', '!=', exceptId)
  await query.execute()
}

export function listUserSessions(db: Executor, userId: number, now: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_used_at', 'expires_at', 'user_agent', 'ip'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('last_used_at', 'desc')
    .execute()
}

export async function deleteOwnSession(db: Executor, userId: number, id: string): Promise<boolean> {
  const result = await db.deleteFrom('sessions').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()
  return Number(result.numDeletedRows) === 1
}

/**
 * Housekeeping: sessions past expiry, and shared-computer sessions idle since
 * `idleCutoff` (the live checks already refuse both).
 */
export async function purgeExpiredSessions(db: Executor, now: string, idleCutoff: string): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([eb('expires_at', '<=', now), eb.and([eb('shared', '=', true), eb('last_used_at', '<=', idleCutoff)])]),
    )
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

/**
 * Housekeeping: forgets the previous token hash once its refresh grace has
 * passed (rotated before `cutoff`). Nothing changes for a client: outside the
 * grace a stale token ends the session whether or not its hash is kept.
 */
export async function clearExpiredGrace(db: Executor, cutoff: string): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ previous_token_hash: null })
    .where('previous_token_hash', 'is not', null)
    .where('rotated_at', '<', cutoff)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}
