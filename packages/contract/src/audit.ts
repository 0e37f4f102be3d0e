import { Type, type Static } from 'typebox'
import { Id, Limit, Offset, Timestamp } from './common.ts'

/**
 * Every action the audit log records (contract §13), named `<target>.<verb>`.
 * docs/decisions.md ("Audit log") says what each one's `detail` holds.
 */
export const AUDIT_ACTIONS = [
  'user.create',
  'user.update',
  'user.deactivate',
  'user.reactivate',
  'user.password_change',
  'user.password_reset',
  'user.grants_change',
  'calling.create',
  'calling.update',
  'calling.delete',
  'calling.grants_change',
  'slot.fill',
  'slot.release',
  'ward.create',
  'ward.update',
  'ward.delete',
  'proposal.create',
  'proposal.update',
  'proposal.delete',
  'proposal.stage',
  'proposal.decline',
  'proposal.vote',
  'override.set',
  'override.clear',
  'auth.login_failed',
  'auth.lock',
  'auth.refresh_reuse',
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]

/** The `<target>` parts: what `?action=<group>.` filters by. */
export const AUDIT_GROUPS = [...new Set(AUDIT_ACTIONS.map((a) => a.slice(0, a.indexOf('.'))))] as AuditGroup[]
export type AuditGroup = AuditAction extends `${infer G}.${string}` ? G : never

/** What an entry's target_id names. */
export const AUDIT_TARGET_TYPES = ['user', 'calling', 'ward', 'proposal'] as const
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number]

export const AuditEntry = Type.Object({
  id: Id,
  at: Timestamp,
  /** Null for what nobody signed in did (a failed sign-in, a reused refresh token). */
  actor_id: Type.Union([Id, Type.Null()]),
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
