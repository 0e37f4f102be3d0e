import { Type, type Static } from 'typebox'
import { Id, Limit, Offset, Timestamp } from './common.ts'
import type { AnonymousActor } from './audit-actions.ts'

export * from './audit-actions.ts'

export const AuditEntry = Type.Object({
  id: Id,
  at: Timestamp,
  /** Null for what nobody signed in did (a failed sign-in, a reused refresh token). */
  actor_id: Type.Union([Id, Type.Null()]),
  /** Who acted when `actor_id` is null and someone without an account did (`booking_link`); else null. */
  anonymous_actor: Type.Union([Type.Literal('booking_link' satisfies AnonymousActor), Type.Null()]),
  action: Type.String(),
  target_type: Type.Union([Type.String(), Type.Null()]),
  target_id: Type.Union([Type.Integer(), Type.Null()]),
  /** Plain facts of the change; never a password, hash, token, secret or cookie. */
  detail: Type.Record(Type.String(), Type.Unknown()),
})
export type AuditEntry = Static<typeof AuditEntry>

/** `2026-11-24` (a day in STAKE_TIMEZONE) or an RFC 3339 date-time; checked strictly by the server. */
const DateOrDateTime = Type.String({ minLength: 10, maxLength: 40 })

export const AuditListQuery = Type.Object({
  actor_id: Type.Optional(Id),
  /** `user.create` matches exactly; `user.` (trailing dot) every action of that group. */
  action: Type.Optional(Type.String({ minLength: 2, maxLength: 64, pattern: '^[a-z][a-z_]*\\.([a-z][a-z_]*)?$' })),
  from: Type.Optional(DateOrDateTime),
  to: Type.Optional(DateOrDateTime),
  limit: Type.Optional(Limit),
  offset: Type.Optional(Offset),
})
export type AuditListQuery = Static<typeof AuditListQuery>
