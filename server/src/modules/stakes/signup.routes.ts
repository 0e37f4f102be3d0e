import cookie from '@fastify/cookie'
import { ErrorBody, StakeSignup, TokenResponse } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import type { FastifyTypebox } from '../../http.ts'
import { sendSession } from '../auth/auth.routes.ts'
import { isCrossSite } from '../auth/cross-site.ts'
import { SignupService } from './signup.service.ts'

/**
 * POST /stakes (docs/api-reference.md §14, signup.service.ts). While the
 * operator has made no code the route does not exist (404 exactly as an
 * unknown route).
 */
export default async function signupRoutes(app: FastifyTypebox, ctx: AppContext) {
  const signup = new SignupService(ctx)

  await app.register(cookie)

  app.post(
    '/',
    {
      config: { auth: 'public' },
      schema: {
        operationId: 'createStake',
        tags: ['stakes'],
        summary: 'Create a stake with a signup code and sign its first administrator in',
        body: StakeSignup,
        response: { 201: TokenResponse, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody },
      },
      onRequest: async (request, reply) => {
        // Before the body is read: without codes this is an unknown route in every respect.
        if (!(await signup.enabled())) {
          reply.callNotFound()
          return reply
        }
      },
      preValidation: async (request) => {
        if (isCrossSite(request, ctx.config.corsOrigins)) {
          throw new AppError(403, 'cross_site', 'Creating a stake from another site is not allowed')
        }
      },
    },
    async (request, reply) => {
      const issued = await signup.signUp(request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      })
      reply.code(201)
      return sendSession(reply, issued, ctx.config.cookieSecure)
    },
  )
}
