import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Permission, User } from '@stake/contract'
import type { Actor } from '../actor.ts'
import type { Clock } from '../clock.ts'
import type { TokenIssuer } from '../context.ts'
import { AppError, forbidden, PASSWORD_CHANGE_REQUIRED, unauthorized } from '../errors.ts'

/**
 * Loads the session a verified token names and its user's record and
 * permissions, and puts the request in that user's stake; null when the
 * session has ended or the user is inactive. The auth module provides it
 * (modules/auth/session-check.ts), app.ts hands it over.
 */
export type SessionCheck = (
  sessionId: string,
  userId: number,
  now: Date,
) => Promise<{ user: User; permissions: ReadonlySet<Permission> } | null>

interface AuthOptions {
  tokens: TokenIssuer
  clock: Clock
  checkSession: SessionCheck
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

export default fp(async function authPlugin(app: FastifyInstance, options: AuthOptions) {
  app.decorateRequest('actor', null)

  async function authenticate(request: FastifyRequest, token: string): Promise<void> {
    const config = request.routeOptions.config
    const now = options.clock.now()
    const verified = token ? await options.tokens.verify(token, now) : ({ ok: false, reason: 'invalid' } as const)
    if (!verified.ok) throw unauthorized(verified.reason === 'expired' ? 'Token expired' : 'Not authenticated')

    const { sessionId, userId } = verified.claims
    const session = await options.checkSession(sessionId, userId, now)
    if (!session) throw unauthorized()
    const { user, permissions } = session
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
