import type { Permission } from '@stake/contract'

/** Pure rules about callings and slots (contract §4–§5); the services apply them. */

/** Anonymous callers see public callings only; a hidden one is 404 for them. */
export const canSeeCalling = (anonymous: boolean, calling: { is_public: unknown }): boolean =>
  !anonymous || Boolean(calling.is_public)

/**
 * Access follows the calling, so seating someone in a slot grants them the
 * calling's permissions: the actor must hold every one of them (contract §4).
 * Returns the grants the actor lacks; empty means allowed.
 */
export function unseatable(held: ReadonlySet<Permission>, grants: readonly Permission[]): Permission[] {
  return grants.filter((p) => !held.has(p))
}

/** System callings may have their slots filled and released, nothing else (contract §4). */
export const isSystemDefined = (calling: { system_defined: unknown }): boolean => Boolean(calling.system_defined)
