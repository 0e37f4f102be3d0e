import {
  isClosedStage,
  PERMISSIONS,
  type HeldCalling,
  type Me,
  type Permission,
  type Proposal,
  type Ward,
} from '../api/types'

const PRESIDENCY_KEYS = ['stake_president', 'stake_first_counselor', 'stake_second_counselor']
const PRESIDENCY_NAMES = ['stake president', 'stake first counselor', 'stake second counselor']

/** `/auth/me` callings carry the calling's key when the server sends it; else fall back to the name. */
function callingIs(c: HeldCalling, keys: string[], names: string[]): boolean {
  if (c.key) return keys.includes(c.key)
  return names.includes(c.name.trim().toLowerCase())
}

export function can(me: Me | null, perm: Permission): boolean {
  return !!me && me.permissions.includes(perm)
}

/** The stake's settings are for a holder of all seven permissions (docs/api-reference.md §14); the server decides. */
export function canAdministerStake(me: Me | null): boolean {
  return !!me && PERMISSIONS.every((p) => me.permissions.includes(p))
}

export function isPresidency(me: Me | null): boolean {
  return !!me && me.callings.some((c) => callingIs(c, PRESIDENCY_KEYS, PRESIDENCY_NAMES))
}

function isHighCouncilor(me: Me | null): boolean {
  return !!me && me.callings.some((c) => callingIs(c, ['high_councilor'], ['high councilor']))
}

export function isBishop(me: Me | null): boolean {
  return !!me && me.callings.some((c) => callingIs(c, ['bishop'], ['bishop']))
}

/** The wards whose Bishop slot the user fills. */
export function bishopWards(me: Me | null, wards: Ward[]): Ward[] {
  if (!me) return []
  const byBishop = wards.filter((w) => w.bishop_id === me.id)
  if (byBishop.length > 0) return byBishop
  const slotWardIds = me.callings
    .filter((c) => callingIs(c, ['bishop'], ['bishop']) && c.ward_id != null)
    .map((c) => c.ward_id)
  return wards.filter((w) => slotWardIds.includes(w.id))
}

/** docs/api-reference.md §7: presidency votes at sp_approval, high councilors at hc_approval. */
export function canVote(me: Me | null, p: Pick<Proposal, 'stage'>): boolean {
  if (p.stage === 'sp_approval') return isPresidency(me)
  if (p.stage === 'hc_approval') return isHighCouncilor(me)
  return false
}

export function canEditProposal(me: Me | null, p: Proposal): boolean {
  if (can(me, 'proposals.manage')) return true
  return !!me && p.submitter === me.id && !isClosedStage(p.stage)
}

export function fullName(p: { fname?: string; lname?: string } | null | undefined): string {
  if (!p) return ''
  return [p.fname, p.lname].filter(Boolean).join(' ')
}
