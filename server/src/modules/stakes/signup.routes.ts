import cookie from '@fastify/cookie'
import { ErrorBody, StakeSignup, TokenResponse } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { isUniqueViolation } from '../../db/database.ts'
import { setScope } from '../../db/stake-scope.ts'
import { AppError, conflict, forbidden } from '../../errors.ts'
import type { FastifyTypebox } from '../../http.ts'
import { AuthService } from '../auth/auth.service.ts'
import { sendSession } from '../auth/auth.routes.ts'
import { isCrossSite } from '../auth/cross-site.ts'
import { checkNewPassword } from '../auth/passwords.ts'
import { hashSecret } from '../auth/tokens.ts'
import { takenElsewhere } from '../limits/email-oracle.ts'
import { addressKey, LIMITS, spend } from '../limits/limits.ts'
import { signupEnabled, spendSignupCode, usableSignupCode } from './signup.repository.ts'
import { openStake } from './stakes.service.ts'

const badCode = () => forbidden('This signup code is unknown or used up')
const duplicateEmail = () => conflict('duplicate_email', 'A user with this email already exists')

/**
 * POST /stakes (docs/api-reference.md §14): with a signup code from the
 * operator (`npm run cli -- stake signup-code`), anyone creates a stake and is
 * signed in as its first administrator. While the operator has made no code
 * the route does not exist (404 exactly as an unknown route). A code's use is
 * spent in the transaction that creates the stake: of two signups racing for
 * a code's last use one gets 201, the other 403, and a refused signup (a taken
 * email) spends nothing.
 */
export default async function signupRoutes(app: FastifyTypebox, ctx: AppContext) {
  const auth = new AuthService(ctx)

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
        if (!(await signupEnabled(ctx.db))) {
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
      // Counted once the body is valid (a malformed request is not an attempt), in the
      // database so every instance shares the count (S21, LIMITS.signup).
      await spend(ctx, LIMITS.signup, addressKey(request.ip))
      const { code, stake_name, email, fname, lname, password } = request.body
      const codeHash = hashSecret(code)
      if (!(await usableSignupCode(ctx.db, codeHash))) throw badCode()
      checkNewPassword(password, 'password')
      // S19: only a holder of a usable code learns whether an email is taken, and that at
      // most LIMITS.emailOracle times an hour per address (then 429); nothing is spent.
      if (await takenElsewhere(ctx, { address: request.ip }, email)) throw duplicateEmail()
      const password_hash = await ctx.hasher.hash(password) // outside the transaction: it may run again
      let created: { stakeId: number; adminId: number }
      try {
        created = await openStake(
          ctx.db,
          ctx.dialect,
          ctx.config,
          {
            name: stake_name,
            admin: {
              email: email.trim(),
              fname: fname.trim(),
              lname: lname.trim(),
              password_hash,
              force_password_reset: false,
            },
          },
          ctx.clock.iso(),
          {
            source: 'signup',
            first: async (trx) => {
              if (!(await spendSignupCode(trx, codeHash))) throw badCode()
            },
          },
        )
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicateEmail() // taken meanwhile
        throw error
      }
      // Signed in as POST /auth/login signs in, in the new stake.
      setScope({ stakeId: created.stakeId })
      const issued = await auth.startSession(created.adminId, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      })
      reply.code(201)
      return sendSession(reply, issued, ctx.config.cookieSecure)
    },
  )
}
