import type { Kysely } from 'kysely'
import type { Dialect } from '../../db/database.ts'
import type { DB } from '../../db/schema.ts'
import type { Executor } from '../../db/types.ts'
import { effectivePermissionList, parsePermissionList } from '../users/permissions.repository.ts'

/** Gives the user this token, replacing any earlier one (one statement: rotation has no in-between). */
export async function upsertFeed(db: Executor, userId: number, tokenHash: string, now: string): Promise<void> {
  await db
    .insertInto('speaking_feeds')
    .values({ user_id: userId, token_hash: tokenHash, created_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ token_hash: tokenHash, created_at: now }))
    .execute()
}

export async function deleteFeed(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('speaking_feeds').where('user_id', '=', userId).execute()
}

/**
 * A feed ends with the account's trust (docs/SECURITY.md "Calendar feed"):
 * "sign out everywhere", an administrator's password reset and a
 * deactivation call this in their own transaction, so a hijacked session
 * cannot leave behind a read credential that outlives it.
 */
export function revokeFeed(db: Executor, userId: number): Promise<void> {
  return deleteFeed(db, userId)
}

/** Whether the user has a feed, and since when (the address itself is never kept). */
export function findFeed(db: Executor, userId: number) {
  return db.selectFrom('speaking_feeds').select(['created_at']).where('user_id', '=', userId).executeTakeFirst()
}

/** The active owner of a feed token and their effective permissions, or undefined. */
export async function findFeedOwner(db: Kysely<DB>, dialect: Dialect, tokenHash: string) {
  const row = await db
    .selectFrom('speaking_feeds as f')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select(['u.id', 'u.stake_id'])
    .select((eb) => effectivePermissionList(db, dialect, eb.ref('u.id')).as('permissions'))
    .where('f.token_hash', '=', tokenHash)
    .where('u.active', '=', true)
    .executeTakeFirst()
  return row && { id: row.id, stakeId: row.stake_id, permissions: parsePermissionList(row.permissions) }
}

/** Wards with what places their events: the speaking Sunday and the meeting's start. */
export function listFeedWards(db: Executor) {
  return db.selectFrom('wards').select(['id', 'name', 'start_time', 'speaking_sunday']).orderBy('id').execute()
}
