import { PERMISSIONS, type Permission } from '@stake/contract'

/** Pure rules about callings and slots (docs/api-reference.md §4–docs/api-reference.md §5); the services apply them. */

/** Anonymous callers see public callings only; a hidden one is 404 for them. */
export const canSeeCalling = (anonymous: boolean, calling: { is_public: unknown }): boolean =>
  !anonymous || Boolean(calling.is_public)

/**
 * Access follows the calling, so seating someone in a slot grants them the
 * calling's permissions: the actor must hold every one of them (docs/api-reference.md §4).
 * Returns the grants the actor lacks; empty means allowed.
 */
export function unseatable(held: ReadonlySet<Permission>, grants: readonly Permission[]): Permission[] {
  return grants.filter((p) => !held.has(p))
}

/** Seats whose role (votes, a ward's proposals) reaches beyond the calling's grants (S3). */
const PRESIDENCY_KEYS = new Set(['stake_president', 'stake_first_counselor', 'stake_second_counselor'])
const VIEWING_ROLE_KEYS = new Set(['bishop', 'high_councilor'])

/**
 * What filling or releasing a seat of this calling needs (S3): every
 * permission it grants, plus its role — the stake presidency's seats act on
 * everything (all seven), a bishop reads his ward's proposals and a high
 * councilor votes on them (proposals.view).
 */
export function seatRequirements(key: string | null, grants: readonly Permission[]): Permission[] {
  if (key !== null && PRESIDENCY_KEYS.has(key)) return [...PERMISSIONS]
  const needed = new Set(grants)
  if (key !== null && VIEWING_ROLE_KEYS.has(key)) needed.add('proposals.view')
  return PERMISSIONS.filter((p) => needed.has(p))
}

/** Only someone who already holds everything may seat himself: a seat can give him nothing new (S3). */
export const maySeatSelf = (held: ReadonlySet<Permission>): boolean => PERMISSIONS.every((p) => held.has(p))

/** System callings may have their slots filled and released, nothing else (docs/api-reference.md §4). */
export const isSystemDefined = (calling: { system_defined: unknown }): boolean => Boolean(calling.system_defined)
