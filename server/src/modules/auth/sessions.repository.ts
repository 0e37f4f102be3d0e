import type { Kysely } from 'kysely'
import type { Executor } from '../../db/types.ts'
import type { DB } from '../../db/schema.ts'
import { precompiled, precompiledValue } from '../../db/precompiled.ts'
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
}

export async function insertSession(db: Executor, session: NewSession): Promise<void> {
  await db.insertInto('sessions').values(session).execute()
}

const sessionWithUser = precompiled(['id'], (db, p) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id', 's.user_id', 's.token_hash', 's.previous_token_hash', 's.rotated_at', 's.expires_at', 'u.active'])
    .where('s.id', '=', p.id),
)

/** The session a refresh cookie names, with whether its user is active. */
export async function findSessionForRefresh(db: Kysely<DB>, id: string) {
  const [row] = await sessionWithUser(db, { id })
  return row
}

/**
 * The per-request check (contract §3), one indexed query: the session exists,
 * belongs to the token's user and has not expired, and the user is active.
 * Answers the current auth_version (what access.ts keys the user's record,
 * permissions and held slots by), or no row when the check fails.
 */
const liveSession = precompiledValue<number, 'sessionId' | 'userId' | 'now'>(['sessionId', 'userId', 'now'], (db, p) =>
  db
    .selectFrom('auth_version as v')
    .select('v.version')
    .where('v.id', '=', 1)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('sessions as s')
          .innerJoin('users as u', 'u.id', 's.user_id')
          .select('s.id')
          .where('s.id', '=', p.sessionId)
          .where('s.user_id', '=', p.userId as unknown as number)
          .where('s.expires_at', '>', p.now)
          .where('u.active', '=', true),
      ),
    ),
)

export async function liveSessionVersion(db: Kysely<DB>, sessionId: string, userId: number, now: string): Promise<number | undefined> {
  const version = await liveSession(db, { sessionId, userId, now })
  return version === undefined ? undefined : Number(version)
}

/**
 * What a request needs to know of a user whose session passed the check: the
 * user row and effective permissions (one statement, so one snapshot).
 */
const userAccess = precompiled(['userId'], (db, p) =>
  db
    .selectFrom('users as u')
    .select(['u.id', 'u.email', 'u.fname', 'u.lname', 'u.active', 'u.force_password_reset', 'u.created_at', 'u.updated_at'])
    .select((eb) => effectivePermissionList(db, eb.ref('u.id')).as('permissions'))
    .where('u.id', '=', p.userId as unknown as number),
)

export async function findUserAccess(db: Kysely<DB>, userId: number) {
  const [row] = await userAccess(db, { userId })
  return row
}

/**
 * Rotation is a conditional write: it succeeds only while `currentHash` is
 * still the session's token, the session has not expired and its user is
 * active, so two concurrent refreshes cannot both rotate. The usual refresh is
 * this one statement; anything else is sorted out by reading the session.
 */
const rotate = precompiled(['id', 'currentHash', 'nextHash', 'now'], (db, p) =>
  db
    .updateTable('sessions')
    .set({ token_hash: p.nextHash, previous_token_hash: p.currentHash, rotated_at: p.now, last_used_at: p.now })
    .where('id', '=', p.id)
    .where('token_hash', '=', p.currentHash)
    .where('expires_at', '>', p.now)
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('users as u').select('u.id').whereRef('u.id', '=', 'sessions.user_id').where('u.active', '=', true)),
    )
    .returning(['user_id', 'expires_at']),
)

/** The rotated session's user and expiry, or undefined when nothing was rotated. */
export async function rotateSessionToken(
  db: Kysely<DB>,
  id: string,
  currentHash: string,
  nextHash: string,
  now: string,
): Promise<{ user_id: number; expires_at: string } | undefined> {
  const [row] = await rotate(db, { id, currentHash, nextHash, now })
  return row
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

/** Housekeeping: sessions past expiry (the live check already refuses them). */
export async function purgeExpiredSessions(db: Executor, now: string): Promise<number> {
  const result = await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst()
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
