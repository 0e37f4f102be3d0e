import { Type, type Static } from 'typebox'
import { Id } from './common.ts'
import { PersonRef } from './proposals.ts'

/**
 * High-council stewardships (docs/api-reference.md §18): each high-council
 * seat's wards and stake organizations. They belong to the seat, so they stay
 * when its holder changes.
 */

/** A seat of the High Councilor calling (its slot number) and what it oversees. */
export const Stewardship = Type.Object({
  slot_id: Id,
  /** The seat's holder now; null while the seat is vacant. */
  high_councilor: Type.Union([PersonRef, Type.Null()]),
  /** In ward-name order. */
  wards: Type.Array(Type.Object({ id: Id, name: Type.String() })),
  /** Stake organizations (e.g. "Stake Young Women"), in the order saved. */
  organizations: Type.Array(Type.String()),
})
export type Stewardship = Static<typeof Stewardship>

/** Every seat, in slot order, vacant or not, with or without a stewardship. */
export const Stewardships = Type.Object({ seats: Type.Array(Stewardship) })
export type Stewardships = Static<typeof Stewardships>

const Organization = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' })

/**
 * PUT /stewardships: the whole assignment at once (a seat left out has none).
 * A ward has at most one steward (422 when named twice); seats must be
 * High Councilor seats (422); organizations are trimmed and kept once per
 * seat (case-insensitively).
 */
export const StewardshipsBody = Type.Object({
  seats: Type.Array(
    Type.Object({
      slot_id: Id,
      ward_ids: Type.Array(Id, { maxItems: 200 }),
      organizations: Type.Array(Organization, { maxItems: 30 }),
    }),
    { maxItems: 100 },
  ),
})
export type StewardshipsBody = Static<typeof StewardshipsBody>
