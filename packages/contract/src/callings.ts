import { Type, type Static } from 'typebox'
import { Id, PermissionName, Timestamp } from './common.ts'

/**
 * A slot's holder. Signed-in callers get `{id, fname, lname}`; anonymous
 * callers get names only (`{fname, lname}`, and the slot's `user_id` is null)
 * — docs/api-reference.md §5.
 */
export const SlotHolder = Type.Object({
  id: Type.Optional(Id),
  fname: Type.String(),
  lname: Type.String(),
})
export type SlotHolder = Static<typeof SlotHolder>

export const CallingSlot = Type.Object({
  slot_id: Id,
  filled: Type.Boolean(),
  user_id: Type.Union([Id, Type.Null()]),
  user: Type.Union([SlotHolder, Type.Null()]),
  /** The ward of a Bishop slot; null for every other slot. */
  ward_id: Type.Union([Id, Type.Null()]),
  /**
   * When the holder was set apart: a date (YYYY-MM-DD), "yes" when only marked
   * (an LCR report's check mark), or null (not known; always null for an empty
   * seat and for anonymous callers).
   */
  set_apart: Type.Union([Type.String(), Type.Null()]),
})
export type CallingSlot = Static<typeof CallingSlot>

export const Calling = Type.Object({
  id: Id,
  name: Type.String(),
  /** Stable key of a system calling (`stake_president`, `bishop`, ...); null for user-made ones. */
  key: Type.Union([Type.String(), Type.Null()]),
  is_public: Type.Boolean(),
  system_defined: Type.Boolean(),
  max_slots: Type.Integer({ minimum: 0 }),
  permissions: Type.Array(PermissionName),
  slots: Type.Array(CallingSlot),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type Calling = Static<typeof Calling>

/** Trimmed before it is stored; must contain a non-blank character (docs/api-reference.md §5). */
export const CallingName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' })
export const MaxSlots = Type.Integer({ minimum: 1, maximum: 100 })
export const GrantList = Type.Array(PermissionName, { maxItems: 50 })

export const CreateCallingBody = Type.Object({
  name: CallingName,
  /** Default false: a new calling is visible to signed-in users only. */
  is_public: Type.Optional(Type.Boolean()),
  /** Default 1. */
  max_slots: Type.Optional(MaxSlots),
  /** Default none; only permissions the caller holds. */
  permissions: Type.Optional(GrantList),
})
export type CreateCallingBody = Static<typeof CreateCallingBody>

/** Omitted optional fields are left as they are. */
export const UpdateCallingBody = Type.Object({
  name: CallingName,
  is_public: Type.Optional(Type.Boolean()),
  max_slots: Type.Optional(MaxSlots),
  permissions: Type.Optional(GrantList),
})
export type UpdateCallingBody = Static<typeof UpdateCallingBody>

export const CallingSort = Type.Union([Type.Literal('name'), Type.Literal('id')])

export const CallingListQuery = Type.Object({
  /** Name contains (case-insensitive). */
  q: Type.Optional(Type.String({ maxLength: 200 })),
  is_public: Type.Optional(Type.Boolean()),
  system_defined: Type.Optional(Type.Boolean()),
  /** true: has at least one empty slot; false: has none. */
  vacant: Type.Optional(Type.Boolean()),
  sort: Type.Optional(CallingSort),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, default: 0 })),
})
export type CallingListQuery = Static<typeof CallingListQuery>

export const FillSlotBody = Type.Object({ user_id: Id })
export type FillSlotBody = Static<typeof FillSlotBody>

/** One holding of a slot: from when to when (`to` null while it is held). */
export const CallingHistoryEntry = Type.Object({
  id: Id,
  slot_id: Id,
  user_id: Id,
  user: Type.Object({ id: Id, fname: Type.String(), lname: Type.String() }),
  from: Timestamp,
  to: Type.Union([Timestamp, Type.Null()]),
})
export type CallingHistoryEntry = Static<typeof CallingHistoryEntry>
