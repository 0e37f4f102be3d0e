import crypto from 'node:crypto'
import Fastify, { LogController, type FastifyServerOptions, type RouteOptions } from 'fastify'
import cors from '@fastify/cors'
import helmet from '@fastify/helmet'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { ErrorBody, ValidationErrorBody } from '@stake/contract'
import { API_BASE, API_SEGMENTS } from '@stake/contract/routes'
import type { Kysely } from 'kysely'
import { proxyTrust, type Config } from './config.ts'
import { notFound, ValidationFailure, type FieldError } from './errors.ts'
import { systemClock, type Clock } from './clock.ts'
import type { AppContext } from './context.ts'
import type { Dialect } from './db/database.ts'
import type { DB } from './db/schema.ts'
import type { FastifyTypebox } from './http.ts'
import { MODULES } from './modules/index.ts'
import { resolveJwtSecret } from './modules/auth/bootstrap.ts'
import { applyEnvSettings } from './modules/stakes/stakes.settings.ts'
import { findStakeIdByRef } from './modules/stakes/stakes.repository.ts'
import { PasswordHasher } from './modules/auth/passwords.ts'
import { AccessTokens } from './modules/auth/tokens.ts'
import authPlugin from './plugins/auth.ts'
import { sessionCheck } from './modules/auth/session-check.ts'
import { runInScope, type ScopeStore } from './db/stake-scope.ts'
import errorsPlugin, { frameworkError } from './plugins/errors.ts'
import { coerceStrictly } from './strict-input.ts'
import webPlugin from './plugins/web.ts'
import lifecyclePlugin, { connectionLimits } from './plugins/lifecycle.ts'
import { schemaCompilers } from './schema-compilers.ts'
import { registerSubscribers } from './subscribers.ts'

export interface AppDeps {
  config: Config
  db: Kysely<DB>
  dialect: Dialect
  clock?: Clock
  /** pino options, or false for no logging (tests). */
  logger?: Exclude<FastifyServerOptions['logger'], boolean> | false
}

/** Never written to the log, whatever a line carries: credentials and passwords. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  '*.password',
  '*.old_password',
  '*.new_password',
]

/**
 * JSON API responses are never rendered: nothing may load or frame them
 * (OWASP's REST set), and they are never cached. Pages keep helmet's defaults.
 */
const API_HELMET = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  frameguard: { action: 'deny' as const },
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Route-level options of @fastify/helmet, merged over the global ones (set on API routes). */
    helmet?: typeof API_HELMET
    /** The path carries a secret (a feed token): the request line logs the route's pattern instead. */
    secretPath?: boolean
  }
}

/** Adds the documented error responses every route can give (docs/api-reference.md §2). */
function documentErrors(route: RouteOptions): void {
  const schema = (route.schema ??= {})
  const response = (schema.response ??= {}) as Record<string, unknown>
  const config = (route.config ?? {}) as { auth?: string; permission?: string; passwordChangeExempt?: boolean }
  const authenticated = config.permission !== undefined || (config.auth ?? 'user') !== 'public'
  if (schema.body || schema.querystring || schema.params) response[422] ??= ValidationErrorBody
  // The security of each operation follows its `config.auth` (plugins/auth.ts): a
  // public one says so with an empty list, so clients send no token.
  ;(schema as Record<string, unknown>).security ??= !authenticated
    ? []
    : config.auth === 'optional'
      ? [{}, { bearerAuth: [] }]
      : [{ bearerAuth: [] }]
  if (authenticated) {
    response[401] ??= ErrorBody
    response[403] ??= ErrorBody
  } else if (!config.passwordChangeExempt) {
    // A token sent to a public route is still checked for the password-change guard (S8).
    response[403] ??= ErrorBody
  }
  if (schema.params) response[404] ??= ErrorBody
  // Any route may meet contention it could not retry away: 503 busy (db/transaction.ts).
  response[503] ??= ErrorBody
  response[500] ??= ErrorBody
}

function findNul(value: unknown, loc: string[], depth = 0): FieldError[] {
  if (typeof value === 'string') {
    return value.includes('\u0000') ? [{ loc, msg: 'Text must not contain NUL characters', type: 'string_nul' }] : []
  }
  if (value === null || typeof value !== 'object' || depth > 20) return []
  return Object.entries(value).flatMap(([key, inner]) => [
    ...(key.includes('\u0000') ? [{ loc, msg: 'Keys must not contain NUL characters', type: 'string_nul' }] : []),
    ...findNul(inner, [...loc, key], depth + 1),
  ])
}

/** Segments whose root paths are aliases of the /api routes. */
const ROOT_ALIASES = new Set([...API_SEGMENTS].filter((s) => s !== 'api' && s !== 'docs' && s !== 'openapi.json'))

/** `/wards/3?x` → `/api/wards/3?x`; anything else (pages, /api, /docs) unchanged. */
function apiAlias(url: string): string {
  const path = url.replace(/^\/+/, '')
  const segment = path.split(/[/?#]/, 1)[0]!
  return ROOT_ALIASES.has(segment) ? `/api/${path}` : url
}

/** `?stake=<id>` or `?stake=<slug>`: the stake an anonymous caller asks about (docs/api-reference.md §14). */
function requestedStake(url: string): string | null {
  const query = url.indexOf('?')
  if (query < 0) return null
  return new URLSearchParams(url.slice(query + 1)).get('stake') || null
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The stake this request runs in (db/stake-scope.ts). */
    scopeStore: ScopeStore | null
    /** `?stake=` named no stake of the deployment: an anonymous caller gets 404. */
    unknownStake: boolean
  }
}

/** Builds the whole application; never listens (main.ts does). */
export async function buildApp(deps: AppDeps): Promise<FastifyTypebox> {
  const { config, db, dialect } = deps
  const clock = deps.clock ?? systemClock
  registerSubscribers()

  const compilers = schemaCompilers()
  const app = Fastify({
    logger: deps.logger ? { ...deps.logger, redact: REDACT } : false,
    // Fastify's own two lines per request are replaced by one (onResponse below).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    ...connectionLimits(config),
    trustProxy: proxyTrust(config.trustProxy),
    genReqId: () => crypto.randomUUID(),
    // The root paths the spec lists (/wards, /auth/login...) are the /api routes
    // under another name: rewritten before routing instead of registered twice,
    // which halved the schemas compiled at start (memory and cold start).
    rewriteUrl: (request) => apiAlias(request.url ?? '/'),
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 200 },
    // The router's own errors (a parameter too long, a path that does not decode) in the contract's shape.
    frameworkErrors: frameworkError,
    // No coercion (S1): path and query text is converted strictly in preValidation below.
    ajv: { customOptions: { allErrors: true, coerceTypes: false, useDefaults: true, removeAdditional: false } },
    // A "__proto__" or "constructor" key is an ignored unknown property, not a decode error (S1).
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    // Each route's validators and serializers are compiled on its first use (schema-compilers.ts).
    schemaController: { compilersFactory: compilers.compilersFactory },
  }).withTypeProvider<TypeBoxTypeProvider>()
  compilers.adopt(app)

  const secret = await resolveJwtSecret(db, config.jwtSecret)
  // A stake still run by the environment variables (the first one, until its
  // settings are saved in the app) takes their values again (docs/api-reference.md §14).
  await applyEnvSettings(db, dialect, config, clock.iso())
  const ctx: AppContext = {
    config,
    db,
    dialect,
    clock,
    tokens: new AccessTokens(secret, config.accessTokenTtlSeconds),
    hasher: new PasswordHasher(config.argon2),
  }

  // Every request runs in one stake (db/stake-scope.ts): the deployment's
  // default stake, or the one `?stake=<id|slug>` names, until the session check
  // (plugins/auth.ts) puts the signed-in user's own. Entered again before the
  // handler: reading the body from the socket loses the async context. A
  // stake that does not exist is 404 for an anonymous caller, exactly as a
  // missing record; a signed-in caller's `?stake=` changes nothing.
  app.decorateRequest('scopeStore', null)
  app.decorateRequest('unknownStake', false)
  app.addHook('onRequest', (request, _reply, done) => {
    const store: ScopeStore = { scope: { stakeId: config.defaultStakeId } }
    request.scopeStore = store
    const ref = requestedStake(request.url)
    if (ref === null) return runInScope(store, done)
    runInScope(store, () => {
      findStakeIdByRef(db, ref).then((id) => {
        if (id === null) request.unknownStake = true
        else store.scope = { stakeId: id }
        done()
      }, done)
    })
  })
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.unknownStake && !request.actor) return done(notFound('Stake'))
    if (request.scopeStore) runInScope(request.scopeStore, done)
    else done()
  })

  // One JSON line per request, with its id (request.log carries it); never
  // headers, cookies, bodies or the query string.
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.routeOptions.config.secretPath ? request.routeOptions.url : request.originalUrl.split('?')[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        ip: request.ip,
        user_id: request.actor?.id ?? null,
      },
      'request',
    )
  })

  await app.register(errorsPlugin)
  await app.register(lifecyclePlugin)
  // Without a token there is no /metrics route: the path answers like any unknown one,
  // and prom-client (~20 MB) is never loaded.
  if (config.metricsToken) {
    const { default: metricsPlugin } = await import('./modules/ops/metrics.ts')
    await app.register(metricsPlugin, { token: config.metricsToken, db })
  }
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) {
      route.config = { ...route.config, auth: 'public' }
      return
    }
    documentErrors(route)
  })
  // PostgreSQL cannot store U+0000 in text; refuse it for every route as a 422
  // instead of letting the database fail (docs/api-reference.md §2: no input gives a 500).
  app.addHook('preValidation', (request, _reply, done) => {
    const errors = [
      ...findNul(request.params, ['path']),
      ...findNul(request.query, ['query']),
      ...findNul(request.body, ['body']),
    ]
    if (errors.length > 0) return done(new ValidationFailure(errors))
    const schema = request.routeOptions.schema
    coerceStrictly(schema?.params, request.params)
    coerceStrictly(schema?.querystring, request.query)
    done()
  })
  // HSTS and upgrade-insecure-requests only where the service is served over
  // https (the same switch as the Secure cookie); on plain http they would break it.
  await app.register(helmet, {
    hsts: config.cookieSecure,
    contentSecurityPolicy: {
      useDefaults: true,
      directives: { upgradeInsecureRequests: config.cookieSecure ? [] : null },
    },
  })
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
    if (request.routeOptions.config.api) reply.header('cache-control', 'no-store')
  })
  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins,
      credentials: true,
      // ETag: a client on another origin revalidates the board with If-None-Match.
      exposedHeaders: ['X-Total-Count', 'X-Unread-Count', 'Retry-After', 'ETag'],
    })
  }
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Stake Administration Service',
        version: '0.1.0',
        description: 'Sign-in, users, callings, wards, the calling-proposal tracker and the speaking schedule.',
      },
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  })
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    // The same rule as for every page: no upgrade-insecure-requests on plain http.
    transformStaticCSP: (header) =>
      config.cookieSecure ? header : header.replace(/\s*upgrade-insecure-requests;?/, ''),
    uiConfig: { persistAuthorization: false },
  })
  await app.register(authPlugin, { tokens: ctx.tokens, clock, checkSession: sessionCheck(ctx) })
  await app.register(webPlugin, { webDist: config.webDist, apiSegments: API_SEGMENTS })

  const markApi = (route: RouteOptions) => {
    route.config = { ...route.config, api: true, helmet: API_HELMET }
  }
  await app.register(
    async (api) => {
      api.addHook('onRoute', markApi)
      for (const module of MODULES)
        await api.register(module.routes as never, { ...ctx, prefix: module.prefix } as never)
    },
    { prefix: API_BASE },
  )

  app.get('/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger())

  return app as unknown as FastifyTypebox
}
