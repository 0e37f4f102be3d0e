import cookie from '@fastify/cookie'
import formbody from '@fastify/formbody'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import {
  ErrorBody,
  LoginForm,
  Me,
  RefreshQuery,
  RefreshResponse,
  SessionInfo,
  type RefreshInclude,
  type TokenResponse as Tokens,
} from '@stake/contract'
import { API_BASE, ROUTE_PREFIXES } from '@stake/contract/routes'
import { type FastifyTypebox, noContent } from '../../http.ts'
import type { AppContext } from '../../context.ts'
import { AppError, ValidationFailure } from '../../errors.ts'
import { isCrossSite } from './cross-site.ts'
import { coerceStrictly } from '../../strict-input.ts'
import { requireActor } from '../../plugins/auth.ts'
import { AuthService, type IssuedSession } from './auth.service.ts'

const REFRESH_COOKIE = 'refresh_token'

/**
 * The sign-in form's body limit: the longest valid form (254-character
 * username, 1,024-character password, every character 4 UTF-8 bytes
 * percent-encoded) is about 15 KiB.
 */
export const LOGIN_BODY_LIMIT = 16 * 1024

/** The refresh cookie's attributes (docs/api-reference.md §3). */
const refreshCookieOptions = (secure: boolean) => ({ httpOnly: true, sameSite: 'strict', path: '/', secure }) as const

/**
 * Answers with a new session: the access token in the body, the refresh token
 * in its cookie (sign-in, refresh, a new stake's signup). The route's context
 * must have registered @fastify/cookie.
 */
export function sendSession(reply: FastifyReply, issued: IssuedSession, cookieSecure: boolean) {
  if (issued.cookie) {
    // No Max-Age on a shared computer: the browser drops the cookie when it closes (docs/api-reference.md §13).
    const { value, maxAgeSeconds } = issued.cookie
    const options = refreshCookieOptions(cookieSecure)
    reply.setCookie(REFRESH_COOKIE, value, maxAgeSeconds === null ? options : { ...options, maxAge: maxAgeSeconds })
  }
  reply.header('Cache-Control', 'no-store')
  return issued.tokens
}

export default async function authRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new AuthService(ctx)
  const cookieOptions = refreshCookieOptions(ctx.config.cookieSecure)

  const send = (reply: FastifyReply, issued: IssuedSession) => sendSession(reply, issued, ctx.config.cookieSecure)
  const clearCookie = (reply: FastifyReply) => reply.clearCookie(REFRESH_COOKIE, cookieOptions)

  // Only these routes read or write the refresh cookie: the plugin's hooks run
  // for them alone, not for every request of the service.
  await app.register(cookie)

  // The login form parser lives only in this context: every other route
  // accepts JSON alone (docs/api-reference.md §1).
  await app.register(async (login: FastifyTypebox) => {
    await login.register(formbody, { bodyLimit: LOGIN_BODY_LIMIT })
    login.post(
      '/login',
      {
        bodyLimit: LOGIN_BODY_LIMIT,
        // Signing in ignores who the caller was: no password-change guard (S8) here.
        config: { auth: 'public', passwordChangeExempt: true },
        schema: {
          operationId: 'login',
          tags: ['auth'],
          summary:
            'Sign in with email and password (form-encoded); ?include=me,board,actions adds the first screen’s data',
          consumes: ['application/x-www-form-urlencoded'],
          querystring: RefreshQuery,
          body: LoginForm,
          response: { 200: RefreshResponse, 403: ErrorBody, 429: ErrorBody },
        },
        preValidation: async (request) => {
          if (isCrossSite(request, ctx.config.corsOrigins)) {
            throw new AppError(403, 'cross_site', 'Signing in from another site is not allowed')
          }
          if (!request.headers['content-type']?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
            throw new ValidationFailure([
              {
                loc: ['header', 'content-type'],
                msg: 'Login expects application/x-www-form-urlencoded',
                type: 'content_type',
              },
            ])
          }
          // Form fields are text: `shared_computer` is a boolean only as exactly `true` or `false` (S1).
          coerceStrictly(LoginForm, request.body)
        },
      },
      async (request, reply) => {
        const { username, password, shared_computer } = request.body
        const issued = await service.login(
          username,
          password,
          { ip: request.ip, userAgent: request.headers['user-agent'] ?? null },
          { shared: shared_computer === true },
        )
        const tokens = send(reply, issued)
        const include = request.query.include
        if (!include) return tokens
        return withFirstScreen(login, request, reply, tokens, new Set(include.split(',') as RefreshInclude[]))
      },
    )
  })

  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/refresh',
      config: { auth: 'public', passwordChangeExempt: true },
      schema: {
        operationId: method === 'GET' ? 'refreshAccessTokenGet' : 'refreshAccessToken',
        tags: ['auth'],
        summary:
          'Exchange the refresh cookie for a new access token (rotates the cookie); ?include=me,board,actions adds the first screen’s data',
        querystring: RefreshQuery,
        response: { 200: RefreshResponse, 401: ErrorBody },
      },
      handler: async (request, reply) => {
        let tokens: Tokens
        try {
          tokens = send(
            reply,
            await service.refresh(request.cookies[REFRESH_COOKIE], (msg, data) => request.log.warn(data, msg), {
              ip: request.ip,
              userAgent: request.headers['user-agent'] ?? null,
            }),
          )
        } catch (error) {
          clearCookie(reply)
          throw error
        }
        const include = request.query.include
        if (!include) return tokens
        return withFirstScreen(app, request, reply, tokens, new Set(include.split(',') as RefreshInclude[]))
      },
    })
  }

  app.get(
    '/me',
    {
      config: { passwordChangeExempt: true },
      schema: {
        operationId: 'getMe',
        tags: ['auth'],
        summary: 'The current user, with callings and effective permissions',
        response: { 200: Me },
      },
    },
    async (request) => service.me(requireActor(request)),
  )

  app.post(
    '/logout',
    {
      config: { passwordChangeExempt: true },
      schema: {
        operationId: 'logout',
        tags: ['auth'],
        summary: 'End this session (or all sessions with ?all=true)',
        querystring: Type.Object({ all: Type.Optional(Type.Boolean()) }),
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.logout(requireActor(request), request.query.all === true)
      clearCookie(reply)
      return reply.status(204).send(null)
    },
  )

  app.get(
    '/sessions',
    {
      schema: {
        operationId: 'listSessions',
        tags: ['auth'],
        summary: "The caller's active sessions",
        response: { 200: Type.Array(SessionInfo) },
      },
    },
    async (request) => service.listSessions(requireActor(request)),
  )

  app.delete(
    '/sessions/:id',
    {
      schema: {
        operationId: 'endSession',
        tags: ['auth'],
        summary: 'End one of the caller’s sessions',
        params: Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) }),
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => noContent(reply, service.endSession(requireActor(request), request.params.id)),
  )
}

/** The routes whose answers a refresh can carry (RefreshQuery). */
const FIRST_SCREEN: Record<RefreshInclude, string> = {
  me: `${API_BASE}${ROUTE_PREFIXES.auth}/me`,
  board: `${API_BASE}${ROUTE_PREFIXES.callingKanban}/board/compact`,
  actions: `${API_BASE}${ROUTE_PREFIXES.actions}`,
  wards: `${API_BASE}${ROUTE_PREFIXES.wards}/`,
  stake: `${API_BASE}${ROUTE_PREFIXES.stake}`,
  setup: `${API_BASE}${ROUTE_PREFIXES.stake}/setup`,
}

/**
 * The refresh's answer with the first screen's data: each part is the answer
 * its own route gives the new token, asked through the whole request pipeline
 * (the session check, the password-change guard, the stake, who may see what),
 * so nothing here decides what the caller may read. The parts are asked at once; a
 * part that is not a 200 is left out and the client asks its route itself.
 * The parts are already JSON: they are joined, not parsed and written again.
 */
async function withFirstScreen(
  app: FastifyTypebox,
  request: FastifyRequest,
  reply: FastifyReply,
  tokens: Tokens,
  include: ReadonlySet<RefreshInclude>,
): Promise<FastifyReply> {
  const headers: Record<string, string> = { authorization: `Bearer ${tokens.access_token}` }
  for (const name of ['accept-language', 'user-agent'] as const) {
    const value = request.headers[name]
    if (value) headers[name] = value
  }
  const parts = await Promise.all(
    [...include].map(async (name) => {
      // The cookie has rotated already: a part that cannot be had is left out, never a failed refresh.
      const res = await app
        .inject({ method: 'GET', url: FIRST_SCREEN[name], headers, remoteAddress: request.ip })
        .catch(() => null)
      if (res?.statusCode !== 200) return ''
      const etag = name === 'board' ? res.headers.etag : undefined
      return `,${JSON.stringify(name)}:${res.body}${typeof etag === 'string' ? `,"board_etag":${JSON.stringify(etag)}` : ''}`
    }),
  )
  return reply.type('application/json; charset=utf-8').send(`${JSON.stringify(tokens).slice(0, -1)}${parts.join('')}}`)
}
