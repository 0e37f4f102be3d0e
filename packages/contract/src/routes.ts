/**
 * Where the API's routes live: the one list the server mounts its modules by
 * (server/src/modules/index.ts), the server's page fallback and root aliases
 * keep clear of, and the web client's service worker never answers with the
 * app shell (web/src/sw.ts). A new prefix is added here and nowhere else.
 */

/** Every route is registered under this prefix; the root paths (/wards, /auth/login) are rewritten to it. */
export const API_BASE = '/api'

/** Each module's prefix under API_BASE; '' mounts a module's own paths (below) at the top. */
export const ROUTE_PREFIXES = {
  ops: '',
  auth: '/auth',
  users: '/users',
  callings: '/callings',
  wards: '/wards',
  speaking: '/speaking',
  callingKanban: '/calling-kanban',
  sustainings: '/sustainings',
  clientErrors: '/client-errors',
  actions: '/actions',
  webhooks: '/webhooks',
  notifications: '',
  audit: '/audit',
  stake: '/stake',
  stakes: '/stakes',
  imports: '/imports',
  push: '/notifications/push',
  appointments: '/appointments',
  sundayPlan: '/sunday-plan',
  stewardships: '/stewardships',
} as const

/** First segments of the modules mounted without a prefix: ops (/health, /ready) and notifications (/notifications, /outbox). */
const UNPREFIXED_SEGMENTS = ['health', 'ready', 'notifications', 'outbox']

/** Served by the server beside the modules: the prefix itself, the interactive docs and the OpenAPI document. */
const SERVER_SEGMENTS = [API_BASE.slice(1), 'docs', 'openapi.json']

/** First path segments the API owns; the web client's own routes must avoid them. */
export const API_SEGMENTS: ReadonlySet<string> = new Set([
  ...SERVER_SEGMENTS,
  ...Object.values(ROUTE_PREFIXES)
    .filter((prefix) => prefix !== '')
    .map((prefix) => prefix.split('/')[1]!),
  ...UNPREFIXED_SEGMENTS,
])

/** A pathname whose first segment is the API's: `/wards`, `/auth/login`, `/api` — never `/board`. */
export const API_PATH = new RegExp(
  `^/(${[...API_SEGMENTS].map((segment) => segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(/|$)`,
)
