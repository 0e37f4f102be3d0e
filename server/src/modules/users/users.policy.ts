import type { Permission } from '@stake/contract'

/** Pure rules about users (docs/api-reference.md §4); the service applies them. */

export const canManageUsers = (permissions: ReadonlySet<Permission>): boolean => permissions.has('users.manage')

/** Self or a user manager may read and edit a user record. */
export const canEditUser = (actorId: number, permissions: ReadonlySet<Permission>, targetId: number): boolean =>
  actorId === targetId || canManageUsers(permissions)

/**
 * Administering another user (password reset, email, active, direct grants)
 * needs every permission the target holds (S2): a lesser administrator
 * cannot take over a greater one's account.
 */
export const mayAdminister = (held: ReadonlySet<Permission>, target: ReadonlySet<Permission>): boolean =>
  [...target].every((p) => held.has(p))

/**
 * Nobody can grant a permission they do not hold (docs/api-reference.md §4). Returns the
 * permissions in `next` that are new compared to `current` and not held.
 */
export function ungrantable(
  held: ReadonlySet<Permission>,
  current: readonly Permission[],
  next: readonly Permission[],
): Permission[] {
  const before = new Set(current)
  return [...new Set(next)].filter((p) => !before.has(p) && !held.has(p))
}
