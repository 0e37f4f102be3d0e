import { Type } from 'typebox'
import { ClientErrorBody, ErrorBody } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import type { FastifyTypebox } from '../../http.ts'
import { RateWindow } from './rate-window.ts'

/** Reports per caller (user, or client address when anonymous) per minute. */
export const REPORTS_PER_MINUTE = 10
/** What of each field reaches the log. */
const LOGGED = { message: 500, route: 200, stack: 2000 }

// One window per app, found through its database handle: several apps in one
// process (the tests) never count each other's reports.
const windows = new WeakMap<object, RateWindow>()

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text)

/**
 * POST /client-errors: the web client reports a screen that failed, so it
 * shows up in the server's log. Nothing is stored. The line carries the
 * user id (when signed in), the route's path and the error text — no IP
 * address, query string, headers or other personal data.
 */
export default async function clientErrorsRoutes(app: FastifyTypebox, ctx: AppContext) {
  let window = windows.get(ctx.db)
  if (!window) windows.set(ctx.db, (window = new RateWindow(REPORTS_PER_MINUTE, 60_000)))
  const limiter = window

  app.post(
    '/',
    {
      // Anyone may report (the sign-in screen can fail too); a token, if sent,
      // must be valid, and a pending password change does not block a report.
      config: { auth: 'optional', passwordChangeExempt: true },
      schema: {
        operationId: 'reportClientError',
        tags: ['client-errors'],
        summary: `Report a web-client error to the server log (${REPORTS_PER_MINUTE} a minute per user or address)`,
        body: ClientErrorBody,
        response: { 204: Type.Null(), 429: ErrorBody },
      },
    },
    async (request, reply) => {
      const userId = request.actor?.id ?? null
      const wait = limiter.hit(userId !== null ? `user:${userId}` : `ip:${request.ip}`, ctx.clock.now().getTime())
      if (wait !== null) {
        throw new AppError(429, 'too_many_attempts', `Too many error reports; try again in ${wait} seconds`, {
          'Retry-After': String(wait),
        })
      }
      const { message, route, stack } = request.body
      request.log.warn(
        {
          client_error: {
            message: clip(message, LOGGED.message),
            route: clip(route.split(/[?#]/)[0]!, LOGGED.route),
            ...(stack ? { stack: clip(stack, LOGGED.stack) } : {}),
          },
          user_id: userId,
        },
        'client error',
      )
      return reply.status(204).send(null)
    },
  )
}
