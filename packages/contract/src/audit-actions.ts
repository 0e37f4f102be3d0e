/** The audit log's vocabulary (docs/api-reference.md §13), without schema code: the web client imports it at runtime. */

/**
 * Every action the audit log records (docs/api-reference.md §13), named `<target>.<verb>`.
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
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'stake.update',
  'auth.login_failed',
  'auth.lock',
  'auth.refresh_reuse',
  'stake.create',
  'import.apply',
  'user.invite',
  'auth.invitation_accept',
  'auth.password_reset',
  'auth.passkey_add',
  'auth.passkey_remove',
  'stewardship.update',
  'appointment.offer',
  'appointment.book',
  'appointment.move',
  'appointment.cancel',
  'availability.update',
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]

/** The `<target>` parts: what `?action=<group>.` filters by. */
export const AUDIT_GROUPS = [...new Set(AUDIT_ACTIONS.map((a) => a.slice(0, a.indexOf('.'))))] as AuditGroup[]
export type AuditGroup = AuditAction extends `${infer G}.${string}` ? G : never

/** What an entry's target_id names. */
export const AUDIT_TARGET_TYPES = ['user', 'calling', 'ward', 'proposal', 'webhook', 'stake', 'appointment'] as const
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number]

/**
 * Who acted when nobody signed in did, named by kind (an entry's
 * `anonymous_actor`): `booking_link`, the person holding a booking link.
 */
export const ANONYMOUS_ACTORS = ['booking_link'] as const
export type AnonymousActor = (typeof ANONYMOUS_ACTORS)[number]
