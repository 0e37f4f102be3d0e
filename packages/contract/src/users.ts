import { Type, type Static } from 'typebox'
import { Id, Limit, Offset, PermissionName, Timestamp } from './common.ts'
import { InvitationSent } from './accounts.ts'

export const Language = Type.Union([Type.Literal('en'), Type.Literal('es')])
export type Language = Static<typeof Language>

export const User = Type.Object({
  id: Id,
  /** Null for a roster-only person: holds callings, never signs in (docs/api-reference.md §16). */
  email: Type.Union([Type.String(), Type.Null()]),
  fname: Type.String(),
  lname: Type.String(),
  /** As given by an administrator or an LCR report (§15); null when unknown. */
  phone: Type.Union([Type.String(), Type.Null()]),
  active: Type.Boolean(),
  force_password_reset: Type.Boolean(),
  /**
   * No password yet: a roster entry (imported or added without one) who
   * cannot sign in until invited and arrived (docs/api-reference.md §15, §16).
   * Not an account waiting for a password change.
   */
  roster: Type.Boolean(),
  /** The person's ward (an LCR member list's unit column, §15); null when unknown. */
  ward_id: Type.Union([Id, Type.Null()]),
  /** The client's and the notifications' language (docs/api-reference.md §13). */
  language: Language,
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type User = Static<typeof User>

/** What a caller without `users.manage` sees of other users (docs/api-reference.md §4). */
export const UserSummary = Type.Object({
  id: Id,
  fname: Type.String(),
  lname: Type.String(),
  active: Type.Boolean(),
})
export type UserSummary = Static<typeof UserSummary>

export const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$' })
export const PersonName = Type.String({ minLength: 1, maxLength: 100 })
export const Password = Type.String({ minLength: 8, maxLength: 256 })
export const Phone = Type.String({ maxLength: 40 })

export const CreateUserBody = Type.Object({
  /** Null or absent: a roster-only person, who never signs in. */
  email: Type.Optional(Type.Union([Email, Type.Null()])),
  fname: PersonName,
  lname: PersonName,
  phone: Type.Optional(Type.Union([Phone, Type.Null()])),
  /** Absent: the server makes a temporary password (returned once), unless `invite` is true. */
  password: Type.Optional(Password),
  /** True: no password; the person chooses one from an invitation (§16). */
  invite: Type.Optional(Type.Boolean()),
})
export type CreateUserBody = Static<typeof CreateUserBody>

export const CreatedUser = Type.Object({
  ...User.properties,
  /** Returned once, when the server generated the password. */
  temporary_password: Type.Optional(Type.String()),
  /** With `invite: true`: the invitation, mailed or (mail off) its link to pass on (§16). */
  invitation: Type.Optional(InvitationSent),
})

export const UpdateUserBody = Type.Object({
  /** Null makes the person roster-only: no sign-in (their sessions end). */
  email: Type.Union([Email, Type.Null()]),
  fname: PersonName,
  lname: PersonName,
  /** Absent keeps the current phone; null clears it. */
  phone: Type.Optional(Type.Union([Phone, Type.Null()])),
  active: Type.Optional(Type.Boolean()),
  /** Absent keeps the current language. */
  language: Type.Optional(Language),
})
export type UpdateUserBody = Static<typeof UpdateUserBody>

export const ChangePasswordBody = Type.Object({
  old_password: Type.Optional(Type.String({ maxLength: 1024 })),
  new_password: Type.String({ maxLength: 1024 }),
})
export type ChangePasswordBody = Static<typeof ChangePasswordBody>

export const PermissionsBody = Type.Object({
  permissions: Type.Array(PermissionName, { maxItems: 50, uniqueItems: false }),
})
export type PermissionsBody = Static<typeof PermissionsBody>

export const UserListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })),
  active: Type.Optional(Type.Boolean()),
  limit: Type.Optional(Limit),
  offset: Type.Optional(Offset),
})
export type UserListQuery = Static<typeof UserListQuery>
