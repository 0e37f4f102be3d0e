import type { Permission, User } from '@stake/contract'

/**
 * Who is calling: built by the auth plugin from the session check, read by
 * handlers and passed to services. Here, below every module, so a service can
 * name it without depending on the HTTP layer.
 */
export interface Actor {
  id: number
  sessionId: string
  forcePasswordReset: boolean
  permissions: ReadonlySet<Permission>
  /** The user's record as read by this request's session check. */
  user: User
}
