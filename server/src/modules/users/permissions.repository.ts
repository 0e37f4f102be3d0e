import { PERMISSIONS, type Permission } from '@stake/contract'
import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely'
import type { Executor } from '../../db/types.ts'
import type { DB } from '../../db/schema.ts'
import type { Dialect } from '../../db/database.ts'

/**
 * Effective permissions (docs/api-reference.md §4): direct grants ∪ the grants of every
 * calling whose slot the user fills. The one place this is defined. The auth
 * check reads it as a column of its per-request query (`effectivePermissionList`),
 * so a released slot stops granting on the next request. Names may repeat
 * (UNION ALL: deduplicating in SQL costs a temporary b-tree per request);
 * `toPermissionSet` removes repeats.
 */
function effectivePermissionNames(db: Executor, userId: Expression<number>) {
  return db
    .selectFrom('user_permissions as up')
    .select('up.permission')
    .where('up.user_id', '=', userId)
    .unionAll(
      db
        .selectFrom('calling_permissions as cp')
        .innerJoin('calling_slots as cs', 'cs.calling_id', 'cp.calling_id')
        .select('cp.permission')
        .where('cs.user_id', '=', userId),
    )
}

/** Effective permissions of `userId` as one comma-separated text (names contain no commas), for a column of a larger query. */
export function effectivePermissionList(
  db: Kysely<DB>,
  dialect: Dialect,
  userId: Expression<number>,
): RawBuilder<string | null> {
  const names = effectivePermissionNames(db, userId)
  return dialect === 'postgres'
    ? sql<string | null>`(select string_agg(e.permission, ',') from (${names}) as e)`
    : sql<string | null>`(select group_concat(e.permission) from (${names}) as e)`
}

/** Active holders of a permission: the same definition read the other way (who holds it, not what one user holds). */
export async function activeHolders(db: Executor, permission: Permission): Promise<number[]> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('active', '=', true)
    // A roster-only person (no email) never signs in: holds nothing in practice.
    .where('email', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('id', 'in', eb.selectFrom('user_permissions').select('user_id').where('permission', '=', permission)),
        eb(
          'id',
          'in',
          eb
            .selectFrom('calling_slots as cs')
            .innerJoin('calling_permissions as cp', 'cp.calling_id', 'cs.calling_id')
            .select('cs.user_id')
            .where('cp.permission', '=', permission)
            .where('cs.user_id', 'is not', null) as never,
        ),
      ]),
    )
    .execute()
  return rows.map((r) => r.id)
}

export const parsePermissionList = (list: string | null): Set<Permission> =>
  toPermissionSet(list ? list.split(',') : [])

const KNOWN = new Set<string>(PERMISSIONS)

export function toPermissionSet(names: Iterable<string>): Set<Permission> {
  const set = new Set<Permission>()
  for (const name of names) if (KNOWN.has(name)) set.add(name as Permission)
  return set
}

/** Stable order for responses. */
export function sortPermissions(permissions: Iterable<Permission>): Permission[] {
  const held = permissions instanceof Set ? (permissions as ReadonlySet<Permission>) : new Set(permissions)
  return PERMISSIONS.filter((p) => held.has(p))
}

/** The effective permissions of one user (S2: what administering them may touch). */
export async function effectivePermissionsOf(db: Executor, userId: number): Promise<Set<Permission>> {
  const rows = await effectivePermissionNames(db, sql<number>`${userId}`).execute()
  return toPermissionSet(rows.map((r) => r.permission))
}

export async function directPermissions(db: Executor, userId: number): Promise<Permission[]> {
  const rows = await db.selectFrom('user_permissions').select('permission').where('user_id', '=', userId).execute()
  return sortPermissions(toPermissionSet(rows.map((r) => r.permission)))
}

export async function replaceDirectPermissions(db: Executor, userId: number, permissions: Permission[]): Promise<void> {
  await db.deleteFrom('user_permissions').where('user_id', '=', userId).execute()
  if (permissions.length > 0) {
    await db
      .insertInto('user_permissions')
      .values(permissions.map((permission) => ({ user_id: userId, permission })))
      .execute()
  }
}
