import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Permission, User } from '@stake/contract'
import type { AppContext } from '../context.ts'
import { AppError, forbidden, unauthorized } from '../errors.ts'
import { findSessionAccess, touchSharedSession } from '../modules/auth/sessions.repository.ts'
import { ACTIVITY_WRITE_SECONDS, idleCutoff } from '../modules/auth/shared-sessions.ts'
import { addSeconds } from '../clock.ts'
import { retrying } from '../db/transaction.ts'
import { acrossStakes, setScope } from '../db/stake-scope.ts'
import { parsePermissionList } from '../modules/users/permissions.repository.ts'
import { toUser } from '../modules/users/users.repository.ts'

/** Who is calling: set by this plugin, read by handlers. */
export interface Actor {
  id: number
  sessionId: string
  forcePasswordReset: boolean
  permissions: ReadonlySet<Permission>
  /** The user's record as read by this request's session check. */
  user: User
}

/**
 * Each route declares its requirement in `config`:
 * - `auth`: 'public' (token ignored), 'optional' (anonymous allowed; a token,
 *   if sent, must be valid) or 'user' (default: a valid token is required);
 * - `permission`: a permission the caller must hold (implies 'user');
 * - `passwordChangeExempt`: reachable while force_password_reset is true
 *   (docs/api-reference.md §3: /auth/me, /auth/logout, /auth/refresh, the password route).
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: 'public' | 'optional' | 'user'
    permission?: Permission
    passwordChangeExempt?: boolean
    /** Set by app.ts on every API route (security headers for JSON). */
    api?: boolean
  }
  interface FastifyRequest {
    actor: Actor | null
  }
}

export const PASSWORD_CHANGE_REQUIRED = () => new AppError(403, 'password_change_required', 'Password change required')

/** The actor of a route declared 'user' or with a permission. */
export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized()
  return request.actor
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization
  if (!header) return null
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  return match ? match[1]! : ''
}

export default fp(async function authPlugin(app: FastifyInstance, ctx: AppContext) {
  app.decorateRequest('actor', null)

  async function authenticate(request: FastifyRequest, token: string): Promise<void> {
    const config = request.routeOptions.config
    const now = ctx.clock.now()
    const verified = token ? await ctx.tokens.verify(token, now) : ({ ok: false, reason: 'invalid' } as const)
    if (!verified.ok) throw unauthorized(verified.reason === 'expired' ? 'Token expired' : 'Not authenticated')

    const { sessionId, userId } = verified.claims
    const nowIso = now.toISOString()
    const cutoff = idleCutoff(now)
    // The session names the user, and the user his stake: found across stakes,
    // then everything else in this request runs in that stake alone.
    const row = await acrossStakes(() => findSessionAccess(ctx.db, ctx.dialect, sessionId, userId, nowIso, cutoff))
    if (!row) throw unauthorized()
    setScope({ stakeId: row.stake_id })
    // A shared-computer session's activity is its requests (docs/api-reference.md §13),
    // written at most once a minute; other sessions write nothing here.
    const staleBefore = addSeconds(now, -ACTIVITY_WRITE_SECONDS).toISOString()
    if (Boolean(row.shared) && row.last_used_at < staleBefore) {
      await retrying(() => touchSharedSession(ctx.db, sessionId, nowIso, staleBefore, cutoff))
    }

    const user = toUser(row)
    const permissions = parsePermissionList(row.permissions)
    if (user.force_password_reset && !config.passwordChangeExempt) throw PASSWORD_CHANGE_REQUIRED()

    request.actor = { id: user.id, sessionId, forcePasswordReset: user.force_password_reset, permissions, user }
    if (config.permission && !permissions.has(config.permission)) {
      throw forbidden(`This needs the ${config.permission} permission`)
    }
  }

  // A callback hook: public routes pass without the cost of a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.is404) return done()
    const config = request.routeOptions.config
    const mode = config.permission ? 'user' : (config.auth ?? 'user')
    const token = bearerToken(request)
    if (mode === 'public') {
      // S8: a caller signed in on a public route meets the password-change
      // guard too; a token that does not check out leaves him anonymous.
      if (!token) return done()
      authenticate(request, token).then(
        () => done(),
        (error) => done(error instanceof AppError && error.code === 'password_change_required' ? error : undefined),
      )
      return
    }

    if (token === null) return done(mode === 'optional' ? undefined : unauthorized())
    authenticate(request, token).then(() => done(), done)
  })
})
