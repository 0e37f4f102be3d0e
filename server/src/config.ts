import crypto from 'node:crypto'
import net from 'node:net'
import os from 'node:os'
import { DEFAULT_PREPARED_STATEMENTS } from './db/pg-statements.ts'

/**
 * Configuration comes only from the environment (docs/api-reference.md §9). It is parsed and
 * validated once, here, and handed down; nothing below reads `process.env`.
 */
export interface Config {
  port: number
  /** Server processes sharing the port (node:cluster); 1 = this process serves alone. */
  workers: number
  host: string
  databaseUrl: string
  jwtSecret: string | null
  adminEmail: string
  initialAdminPassword: string | null
  cookieSecure: boolean
  corsOrigins: string[]
  /** S7: false, a hop count (1..10) or the proxies' addresses/CIDRs; never "trust everything". */
  trustProxy: false | number | string[]
  accessTokenTtlSeconds: number
  sessionTtlSeconds: number
  /**
   * The next four are stake settings now (docs/api-reference.md §14): defaults of
   * a new stake, and the values of a stake still marked settings_from_env.
   * Code reads a stake's own (stakes.repository.ts currentStakeSettings), never these.
   */
  spApprovalsRequired: number
  hcApprovalsRequired: number
  highCouncilSeats: number
  /** DEFAULT_STAKE_ID: the stake anonymous routes answer for unless `?stake=` names one (docs/api-reference.md §14). */
  defaultStakeId: number
  /** STAKE_NAME: the name of the first stake of a new database. */
  stakeName: string
  /** Days the audit log keeps an entry (docs/api-reference.md §13); housekeeping deletes older ones. */
  auditRetentionDays: number
  /** IANA time zone the stake's meeting times are in (calendar feed): a stake setting, see spApprovalsRequired. */
  stakeTimezone: string
  /** The service's public origin (and path, if any) for links it hands out; null = the request's own origin. */
  publicUrl: string | null
  /** Webhooks may post to loopback, private and other non-public addresses (docs/api-reference.md §11); off by default. */
  webhookAllowPrivate: boolean
  /**
   * Push endpoints may be any address, port and http (PUSH_ALLOW_PRIVATE; tests only, refused with
   * NODE_ENV=production). WEBHOOK_ALLOW_PRIVATE never applies to push: any signed-in user adds a device.
   */
  pushAllowPrivate: boolean
  /** PostgreSQL with several stakes: start even on a role that bypasses row-level security (S17; docs/SECURITY.md). */
  allowRlsBypass: boolean
  /** PostgreSQL: the role that owns the tables runs the migrations (S17); null = DATABASE_URL's role does. */
  migrationDatabaseUrl: string | null
  /** The ports a webhook may post to (WEBHOOK_PORTS; 80 and 443 by default); WEBHOOK_ALLOW_PRIVATE lifts this too. */
  webhookPorts: number[]
  /** A webhook delivery attempt (connect, send, answer) is abandoned after this. */
  webhookTimeoutMs: number
  /** Mail (docs/api-reference.md §11): `smtp://` or `smtps://` with credentials in the URL; null = no mail, the inbox still works. */
  smtpUrl: string | null
  /** The From address of the mail. */
  mailFrom: string
  /** Voters get an automatic reminder once a proposal has waited this long at their stage. */
  remindAfterHours: number
  /** Local hour (in each stake's time zone) at which the daily jobs run: digest, reminders, housekeeping. */
  dailyHour: number
  /** Where backups go (`npm run cli -- backup`, the daily backup, the copy before start-up migrates). */
  backupDir: string
  /** The daily backup keeps the newest this many backups in backupDir. */
  backupKeep: number
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** argon2id cost; production values by default, cheap ones in tests. */
  argon2: { memoryCost: number; timeCost: number; parallelism: number }
  /** Where the built web client lives; null serves no client. */
  webDist: string | null
  /**
   * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (base64url, as web-push writes them): the Web Push key pair,
   * checked to be one P-256 pair. Null = the pair generated once and kept in the database (push.keys.ts).
   */
  vapidKeys: { publicKey: string; privateKey: string } | null
  /** Bearer token a Prometheus scraper sends to GET /metrics; null = no /metrics route at all. */
  metricsToken: string | null
  /** Statements each connection keeps compiled (db/pg-statements.ts on PostgreSQL, sqliteDriver on SQLite); 0 = none. */
  dbPreparedStatements: number
  /** Every wait has a bound (README "Operations"). */
  timeouts: {
    /** PostgreSQL: waiting for a pooled or new connection. */
    connectTimeoutMs: number
    /** PostgreSQL `statement_timeout` (the client gives up 1 s later). */
    statementTimeoutMs: number
    /** SQLite: waiting for another process's write lock. */
    sqliteBusyTimeoutMs: number
    /** HTTP: the whole request (headers and body) must arrive within this. */
    requestTimeoutMs: number
    /** HTTP: an idle keep-alive connection is closed after this. */
    keepAliveTimeoutMs: number
    /** Shutdown: the listener keeps accepting for this long after SIGTERM. */
    shutdownDrainMs: number
    /** Shutdown: the process ends after this, finished or not. */
    shutdownTimeoutMs: number
  }
}

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

/** OWASP's argon2id recommendation: 19 MiB, 2 passes, 1 lane. */
const PRODUCTION_ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1 }

/**
 * The machine's cores, at most 4: every request already holds across
 * instances (limits, sessions, jobs and outboxes live in the database). An
 * in-memory SQLite database exists in one process only, so it has one.
 */
function workers(env: Record<string, string | undefined>, databaseUrl: string): number {
  const inMemory = databaseUrl === 'sqlite:' || databaseUrl === 'sqlite::memory:'
  const count = int(env, 'WORKERS', inMemory ? 1 : Math.min(4, os.availableParallelism()), 1, 16)
  if (inMemory && count > 1)
    throw new ConfigError('WORKERS above 1 needs a database file or PostgreSQL, not sqlite::memory:')
  return count
}

function int(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got "${raw}"`)
  const value = Number(raw)
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`)
  return value
}

function bool(env: Record<string, string | undefined>, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase()
  if (raw === undefined || raw === '') return fallback
  if (['true', '1', 'yes'].includes(raw)) return true
  if (['false', '0', 'no'].includes(raw)) return false
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`)
}

/**
 * An IANA zone name in Intl's canonical spelling ("america/denver" →
 * "America/Denver"), or null for anything else — an unknown name, or a bare
 * UTC offset ("+13:00"), which Intl takes but which is no zone: it knows no
 * daylight saving time. STAKE_TIMEZONE and PUT /stake share this rule.
 */
export function ianaTimeZone(raw: string): string | null {
  const name = raw.trim()
  if (!name || /^[+-]/.test(name)) return null
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone
  } catch {
    return null
  }
}

/** An IANA zone name as Intl knows it (canonical spelling); unset = the server's own zone. */
function timeZone(raw: string | undefined): string {
  if (!raw?.trim()) return Intl.DateTimeFormat().resolvedOptions().timeZone
  const zone = ianaTimeZone(raw)
  if (zone === null) throw new ConfigError(`STAKE_TIMEZONE is not an IANA time zone name: "${raw}"`)
  return zone
}

/** http(s) origin with an optional path prefix, kept without a trailing slash. */
function publicUrl(raw: string | undefined): string | null {
  const value = raw?.trim()
  if (!value) return null
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(`PUBLIC_URL is not a URL: "${value}"`)
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`PUBLIC_URL must be an http(s) address without query, fragment or credentials: "${value}"`)
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

/** SMTP_URL: smtp:// or smtps:// with a host; credentials (if any) in the URL. */
function smtpUrl(raw: string | undefined): string | null {
  const value = raw?.trim()
  if (!value) return null
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError('SMTP_URL is not a URL')
  }
  if (!['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname) {
    // Never echo the value: it may carry a password.
    throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// address with a host')
  }
  return value
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1'])

/**
 * COOKIE_SECURE's default (S15): PUBLIC_URL says how browsers reach the
 * service, so an https:// one turns it on even when HOST is local (a TLS
 * proxy on the same machine). Without PUBLIC_URL: on unless HOST is local.
 */
function secureByDefault(rawPublicUrl: string | undefined, host: string): boolean {
  const value = rawPublicUrl?.trim()
  if (value) return value.toLowerCase().startsWith('https://')
  return !LOCAL_HOSTS.has(host)
}

/** Settings that are valid but probably a mistake: logged as warnings at start (startup.ts). */
export function configWarnings(config: Pick<Config, 'publicUrl' | 'cookieSecure'>): string[] {
  const warnings: string[] = []
  if (config.publicUrl?.startsWith('https://') && !config.cookieSecure) {
    warnings.push(
      'PUBLIC_URL is https:// but COOKIE_SECURE=false: the refresh cookie is sent without Secure; ' +
        'set COOKIE_SECURE=true unless browsers really reach the service over plain http',
    )
  }
  return warnings
}

/**
 * TRUST_PROXY (S7): `false`, a hop count or a comma list of proxy addresses
 * or CIDRs. `true` is refused: it would trust every X-Forwarded-For hop, so
 * any client could choose the address it is throttled by.
 */
function trustProxy(raw: string | undefined): Config['trustProxy'] {
  const value = raw?.trim() ?? ''
  if (value === '' || value.toLowerCase() === 'false' || value === '0') return false
  if (value.toLowerCase() === 'true') {
    throw new ConfigError(
      'TRUST_PROXY=true would trust every X-Forwarded-For hop; give a hop count (1-10) or the proxy addresses',
    )
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value)
    if (hops < 1 || hops > 10) throw new ConfigError(`TRUST_PROXY hop count must be between 1 and 10, got ${hops}`)
    return hops
  }
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/')
    const family = net.isIP(address ?? '')
    const prefixOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32))
    if (family === 0 || !prefixOk || extra !== undefined) {
      throw new ConfigError(`TRUST_PROXY entry is neither a hop count nor an address or CIDR: "${entry}"`)
    }
  }
  return entries
}

/** TRUST_PROXY as Fastify takes it: a hop count becomes "trust the first n hops" (its types lack the number form). */
export function proxyTrust(
  trust: Config['trustProxy'],
): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const host = env.HOST?.trim() || '127.0.0.1'
  const databaseUrl = env.DATABASE_URL?.trim() || 'sqlite:./data/stake.db'
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must start with sqlite: or postgres://, got "${databaseUrl}"`)
  }
  const jwtSecret = env.JWT_SECRET || null
  if (jwtSecret !== null && Buffer.byteLength(jwtSecret) < 32) {
    throw new ConfigError('JWT_SECRET must be at least 32 bytes long')
  }
  const adminEmail = env.ADMIN_EMAIL?.trim() || 'admin@example.com'
  if (!/^[^\s@]+@[^\s@]+$/.test(adminEmail))
    throw new ConfigError(`ADMIN_EMAIL is not an email address: "${adminEmail}"`)
  const initialAdminPassword = env.INITIAL_ADMIN_PASSWORD || null
  if (initialAdminPassword !== null && (initialAdminPassword.length < 8 || initialAdminPassword.length > 256)) {
    throw new ConfigError('INITIAL_ADMIN_PASSWORD must be 8 to 256 characters')
  }
  const logLevel = (env.LOG_LEVEL?.trim() || 'info') as Config['logLevel']
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`)
  const corsOrigins = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)
  for (const origin of corsOrigins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) throw new ConfigError(`CORS_ORIGINS entry is not an origin: "${origin}"`)
  }
  const pushAllowPrivate = bool(env, 'PUSH_ALLOW_PRIVATE', false)
  if (pushAllowPrivate && env.NODE_ENV?.trim() === 'production') {
    throw new ConfigError(
      'PUSH_ALLOW_PRIVATE=true lets any signed-in user make the server post to internal addresses; it is for tests and is refused with NODE_ENV=production',
    )
  }
  const migrationDatabaseUrl = env.MIGRATION_DATABASE_URL?.trim() || null
  if (migrationDatabaseUrl !== null) {
    if (!/^postgres(ql)?:\/\//.test(migrationDatabaseUrl) || !/^postgres(ql)?:\/\//.test(databaseUrl)) {
      throw new ConfigError(
        'MIGRATION_DATABASE_URL is for PostgreSQL: both it and DATABASE_URL must start with postgres://',
      )
    }
  }
  return {
    port: int(env, 'PORT', 8000, 0, 65535),
    workers: workers(env, databaseUrl),
    host,
    databaseUrl,
    jwtSecret,
    adminEmail,
    initialAdminPassword,
    cookieSecure: bool(env, 'COOKIE_SECURE', secureByDefault(env.PUBLIC_URL, host)),
    corsOrigins,
    trustProxy: trustProxy(env.TRUST_PROXY),
    accessTokenTtlSeconds: int(env, 'ACCESS_TOKEN_TTL_SECONDS', 900, 1, 900),
    sessionTtlSeconds: 7 * 24 * 3600,
    spApprovalsRequired: int(env, 'SP_APPROVALS_REQUIRED', 2, 1, 3),
    hcApprovalsRequired: int(env, 'HC_APPROVALS_REQUIRED', 3, 1, 100),
    highCouncilSeats: int(env, 'HIGH_COUNCIL_SEATS', 12, 1, 100),
    defaultStakeId: int(env, 'DEFAULT_STAKE_ID', 1, 1, 2147483647),
    stakeName: env.STAKE_NAME?.trim().slice(0, 100) || 'Our Stake',
    auditRetentionDays: int(env, 'AUDIT_RETENTION_DAYS', 730, 1, 36500),
    stakeTimezone: timeZone(env.STAKE_TIMEZONE),
    publicUrl: publicUrl(env.PUBLIC_URL),
    webhookAllowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    pushAllowPrivate,
    allowRlsBypass: bool(env, 'ALLOW_RLS_BYPASS', false),
    migrationDatabaseUrl,
    webhookPorts: ports(env.WEBHOOK_PORTS),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    smtpUrl: smtpUrl(env.SMTP_URL),
    mailFrom: mailFrom(env.MAIL_FROM, adminEmail),
    remindAfterHours: int(env, 'REMIND_AFTER_HOURS', 72, 1, 24 * 365),
    dailyHour: int(env, 'DAILY_HOUR', 7, 0, 23),
    backupDir: env.BACKUP_DIR?.trim() || './data/backups',
    backupKeep: int(env, 'BACKUP_KEEP', 14, 1, 3650),
    logLevel,
    argon2: PRODUCTION_ARGON2,
    webDist: null,
    metricsToken: metricsToken(env.METRICS_TOKEN),
    dbPreparedStatements: int(env, 'DB_PREPARED_STATEMENTS', DEFAULT_PREPARED_STATEMENTS, 0, 10_000),
    vapidKeys: vapidKeys(env.VAPID_PUBLIC_KEY, env.VAPID_PRIVATE_KEY),
    timeouts: parseTimeouts(env),
  }
}

/**
 * METRICS_TOKEN: sent as `Authorization: Bearer <token>`, so printable ASCII
 * without spaces; at least 16 characters, so it cannot be guessed by trying.
 */
function metricsToken(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null
  // Never echo the value: it is a credential.
  if (!/^[\x21-\x7e]{16,256}$/.test(raw)) {
    throw new ConfigError('METRICS_TOKEN must be 16 to 256 printable ASCII characters without spaces')
  }
  return raw
}

/**
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: both or neither (half a pair can
 * sign nothing a browser accepts). The public key is an uncompressed P-256
 * point (65 bytes), the private key a 32-byte scalar, and the point must be
 * the scalar's: a mismatched pair would be refused by every push service only
 * once a push is sent. The private key is never echoed.
 */
function vapidKeys(rawPublic: string | undefined, rawPrivate: string | undefined): Config['vapidKeys'] {
  const publicText = rawPublic?.trim() ?? ''
  const privateText = rawPrivate?.trim() ?? ''
  if (publicText === '' && privateText === '') return null
  if (publicText === '' || privateText === '') {
    throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: give both or neither')
  }
  const decode = (text: string) => (/^[A-Za-z0-9_-]+={0,2}$/.test(text) ? Buffer.from(text, 'base64url') : null)
  const publicKey = decode(publicText)
  if (publicKey?.length !== 65 || publicKey[0] !== 0x04) {
    throw new ConfigError('VAPID_PUBLIC_KEY must be a P-256 public key: 65 bytes in base64url, as web-push writes it')
  }
  const privateKey = decode(privateText)
  if (privateKey?.length !== 32) {
    throw new ConfigError('VAPID_PRIVATE_KEY must be a P-256 private key: 32 bytes in base64url, as web-push writes it')
  }
  let derived: Buffer
  try {
    const ecdh = crypto.createECDH('prime256v1')
    ecdh.setPrivateKey(privateKey)
    derived = ecdh.getPublicKey()
  } catch {
    throw new ConfigError('VAPID_PRIVATE_KEY is not a valid P-256 private key')
  }
  if (!crypto.timingSafeEqual(derived, publicKey)) {
    throw new ConfigError(
      'VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY: give the two halves of one pair',
    )
  }
  // Re-encoded: unpadded base64url, as browsers and web-push take it.
  return { publicKey: publicKey.toString('base64url'), privateKey: privateKey.toString('base64url') }
}

/** The ports a webhook may post to while WEBHOOK_PORTS is unset: the web's. */
const DEFAULT_WEBHOOK_PORTS: readonly number[] = [80, 443]

/** WEBHOOK_PORTS: a comma list of ports (1-65535); unset = DEFAULT_WEBHOOK_PORTS. */
function ports(raw: string | undefined): number[] {
  const entries = (raw ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
  if (entries.length === 0) return [...DEFAULT_WEBHOOK_PORTS]
  return entries.map((entry) => {
    const port = /^\d{1,5}$/.test(entry) ? Number(entry) : 0
    if (port < 1 || port > 65535) throw new ConfigError(`WEBHOOK_PORTS entry is not a port (1-65535): "${entry}"`)
    return port
  })
}

/** MAIL_FROM: an address, optionally with a display name (`Stake <stake@example.org>`); default ADMIN_EMAIL. */
function mailFrom(raw: string | undefined, fallback: string): string {
  const value = raw?.trim()
  if (!value) return fallback
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(value) && !/^[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>$/.test(value)) {
    throw new ConfigError(`MAIL_FROM is not an email address: "${value}"`)
  }
  return value
}

function parseTimeouts(env: Record<string, string | undefined>): Config['timeouts'] {
  const timeouts = {
    connectTimeoutMs: int(env, 'DB_CONNECT_TIMEOUT_MS', 3000, 100, 600_000),
    statementTimeoutMs: int(env, 'DB_STATEMENT_TIMEOUT_MS', 5000, 100, 600_000),
    sqliteBusyTimeoutMs: int(env, 'SQLITE_BUSY_TIMEOUT_MS', 2000, 0, 600_000),
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 10_000, 100, 600_000),
    keepAliveTimeoutMs: int(env, 'KEEP_ALIVE_TIMEOUT_MS', 5000, 100, 600_000),
    shutdownDrainMs: int(env, 'SHUTDOWN_DRAIN_MS', 2000, 0, 600_000),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
  }
  if (timeouts.shutdownTimeoutMs <= timeouts.shutdownDrainMs) {
    throw new ConfigError('SHUTDOWN_TIMEOUT_MS must be longer than SHUTDOWN_DRAIN_MS')
  }
  return timeouts
}
