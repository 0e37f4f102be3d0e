import { PERMISSIONS, type Permission } from '@stake/contract'
import type { Kysely } from 'kysely'
import type { Executor } from '../../db/types.ts'
import type { DB } from '../../db/schema.ts'
import { precompiled } from '../../db/precompiled.ts'

/**
 * Effective permissions (contract §4): direct grants ∪ the grants of every
 * calling whose slot the user fills. The one place this is computed; it is
 * read per request, so a released slot stops granting on the next request.
 */
const effective = precompiled(['userId'], (db, p) => {
  const userId = p.userId as unknown as number
  return db
    .selectFrom('user_permissions')
    .select('permission')
    .where('user_id', '=', userId)
    .union(
      db
        .selectFrom('calling_permissions as cp')
        .innerJoin('calling_slots as cs', 'cs.calling_id', 'cp.calling_id')
        .select('cp.permission')
        .where('cs.user_id', '=', userId),
    )
})

export async function effectivePermissions(db: Executor, userId: number): Promise<Set<Permission>> {
  const rows = await effective(db as Kysely<DB>, { userId })
  return toPermissionSet(rows.map((r) => r.permission))
}

export function toPermissionSet(names: Iterable<string>): Set<Permission> {
  const known = new Set<string>(PERMISSIONS)
  const set = new Set<Permission>()
  for (const name of names) if (known.has(name)) set.add(name as Permission)
  return set
}

/** Stable order for responses. */
export const sortPermissions = (set: Iterable<Permission>): Permission[] =>
  PERMISSIONS.filter((p) => new Set(set).has(p))

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
