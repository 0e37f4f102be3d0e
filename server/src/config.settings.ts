/**
 * Every setting config.ts reads, documented once: the README's configuration
 * table is written from this list (`npm run docs:config`), and
 * config.settings.test.ts fails when config.ts reads a variable missing here
 * or the README's table differs from what this list writes. Markdown cells.
 */
export interface SettingDoc {
  /** The environment variables (more than one when they only make sense together). */
  names: string[]
  default: string
  meaning: string
}

export const SETTINGS: SettingDoc[] = [
  { names: ['PORT'], default: '`8000`', meaning: 'listening port' },
  { names: ['HOST'], default: '`127.0.0.1`', meaning: 'listening address (`0.0.0.0` to serve a network)' },
  {
    names: ['WORKERS'],
    default: "the machine's cores, at most 4 (1 on `sqlite::memory:`)",
    meaning:
      'server processes sharing the port (`node:cluster`): the first process migrates the database, then supervises them, replaces one that dies and drains them all on SIGTERM (docs/performance.md)',
  },
  {
    names: ['DATABASE_URL'],
    default: '`sqlite:./data/stake.db`',
    meaning: '`sqlite:<path>` or `postgres://user@host:5432/db`',
  },
  {
    names: ['JWT_SECRET'],
    default: 'generated once, kept in the database',
    meaning: 'HS256 secret, at least 32 bytes',
  },
  {
    names: ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'],
    default: 'generated once, kept in the database',
    meaning:
      'the Web Push key pair, base64url as `npx web-push generate-vapid-keys` prints it; both or neither, checked to be one P-256 pair at start; when given, nothing is stored',
  },
  { names: ['ADMIN_EMAIL'], default: '`admin@example.com`', meaning: 'bootstrap administrator (empty database only)' },
  { names: ['INITIAL_ADMIN_PASSWORD'], default: 'random, printed once', meaning: 'its first password' },
  {
    names: ['COOKIE_SECURE'],
    default: '`true` when `PUBLIC_URL` is `https://`; without `PUBLIC_URL`, `true` unless `HOST` is localhost',
    meaning: '`Secure` flag of the refresh cookie; off with an `https://` `PUBLIC_URL` logs a warning at start',
  },
  {
    names: ['CORS_ORIGINS'],
    default: 'none (same origin only)',
    meaning:
      'comma-separated origins allowed with credentials; they may read `X-Total-Count`, `X-Unread-Count`, `Retry-After` and `ETag`',
  },
  {
    names: ['TRUST_PROXY'],
    default: '`false`',
    meaning:
      '`false`, a hop count (1–10) or a comma list of proxy addresses/CIDRs whose `X-Forwarded-*` is honoured; `true` is refused (docs/SECURITY.md)',
  },
  { names: ['ACCESS_TOKEN_TTL_SECONDS'], default: '`900`', meaning: 'access-token lifetime (shorter only for tests)' },
  {
    names: ['SP_APPROVALS_REQUIRED'],
    default: '`2`',
    meaning: 'approvals that move a proposal past stake-presidency approval (a stake setting, see below)',
  },
  {
    names: ['HC_APPROVALS_REQUIRED'],
    default: '`3`',
    meaning: 'approvals that move it past high-council approval (a stake setting)',
  },
  { names: ['HIGH_COUNCIL_SEATS'], default: '`12`', meaning: 'seats of the High Councilor calling (a stake setting)' },
  {
    names: ['AUDIT_RETENTION_DAYS'],
    default: '`730`',
    meaning:
      "days the audit log keeps an entry, and a sent or failed mail its outbox row; the server's hourly housekeeping (and `npm run cli -- purge`) deletes older ones (a finished mail's body goes after 7 days)",
  },
  {
    names: ['STAKE_TIMEZONE'],
    default: "the server's zone",
    meaning:
      "IANA zone name (`America/Denver`) the wards' meeting times are in; places the speaking calendar feed's events (a stake setting)",
  },
  {
    names: ['STAKE_NAME'],
    default: '`Our Stake`',
    meaning: 'the name of the first stake of a new database (then a stake setting)',
  },
  {
    names: ['DEFAULT_STAKE_ID'],
    default: '`1`',
    meaning:
      'the stake anonymous pages answer for (its public page, the wards list) unless `?stake=` names one (docs/api-reference.md §14)',
  },
  {
    names: ['PUBLIC_URL'],
    default: "the request's own origin; mailed links: `http://HOST:PORT`",
    meaning:
      "the service's one public address (`https://stake.example.org`): every link it hands out or mails (calendar feeds, invitations, reset and booking links, mail) starts with it, and passkeys belong to its host; set it when mail is on or behind a proxy; `https://` also makes `COOKIE_SECURE` default to `true`",
  },
  {
    names: ['WEBHOOK_ALLOW_PRIVATE'],
    default: '`false`',
    meaning:
      'let webhooks post to loopback, private and other non-public addresses on any port (a receiver on the same machine or network)',
  },
  {
    names: ['MIGRATION_DATABASE_URL'],
    default: 'unset',
    meaning:
      'PostgreSQL: the tables\' owner, which runs the migrations, while `DATABASE_URL`\'s role only serves (`npm run cli -- db roles`, section "PostgreSQL")',
  },
  {
    names: ['ALLOW_RLS_BYPASS'],
    default: '`false`',
    meaning:
      'PostgreSQL with more than one stake: start even when the serving role bypasses row-level security (a superuser, `BYPASSRLS`, or the owner of a table without `FORCE`); without it the server refuses to start',
  },
  {
    names: ['PUSH_ALLOW_PRIVATE'],
    default: '`false`',
    meaning:
      'tests only: let push endpoints be any address and port, http too (a local stand-in for a push service); refused at start with `NODE_ENV=production`. `WEBHOOK_ALLOW_PRIVATE` never applies to push: a push endpoint is https on 443 at a public address',
  },
  {
    names: ['WEBHOOK_PORTS'],
    default: '`80,443`',
    meaning: 'comma list of the ports webhooks may post to (lifted by `WEBHOOK_ALLOW_PRIVATE=true`)',
  },
  {
    names: ['WEBHOOK_TIMEOUT_MS'],
    default: '`10000`',
    meaning: 'a webhook delivery attempt (connect, send, answer) is abandoned after this',
  },
  {
    names: ['LOG_LEVEL'],
    default: '`info`',
    meaning: 'pino level; one JSON line per request, never tokens, cookies or passwords',
  },
  {
    names: ['DB_CONNECT_TIMEOUT_MS'],
    default: '`3000`',
    meaning: 'PostgreSQL: longest wait for a connection (free pooled one or new)',
  },
  {
    names: ['DB_PREPARED_STATEMENTS'],
    default: '`200`',
    meaning:
      'Statements kept compiled per connection, so that one is not parsed and planned on every request (named prepared statements on PostgreSQL, kept statements on SQLite); `0` keeps none, for a pooler that cannot carry them (PgBouncer in transaction mode before 1.21)',
  },
  {
    names: ['DB_STATEMENT_TIMEOUT_MS'],
    default: '`5000`',
    meaning: 'PostgreSQL `statement_timeout` and `lock_timeout` (migrations included); the client gives up 1 s later',
  },
  {
    names: ['SQLITE_BUSY_TIMEOUT_MS'],
    default: '`2000`',
    meaning: "SQLite: longest wait for another process's write lock",
  },
  {
    names: ['REQUEST_TIMEOUT_MS'],
    default: '`10000`',
    meaning: "a request's headers and body must arrive within this",
  },
  {
    names: ['KEEP_ALIVE_TIMEOUT_MS'],
    default: '`5000`',
    meaning: 'an idle keep-alive connection is closed after this',
  },
  {
    names: ['SHUTDOWN_DRAIN_MS'],
    default: '`2000`',
    meaning: 'after SIGTERM, how long new requests are still accepted',
  },
  {
    names: ['SHUTDOWN_TIMEOUT_MS'],
    default: '`10000`',
    meaning: 'after SIGTERM, the process ends by then, finished or not',
  },
  {
    names: ['METRICS_TOKEN'],
    default: 'none: no `/metrics`',
    meaning: 'bearer token (16–256 printable characters, no spaces) a Prometheus scraper sends to `GET /metrics`',
  },
  {
    names: ['BACKUP_DIR'],
    default: '`./data/backups`',
    meaning:
      'where `npm run cli -- backup`, the daily backup and the copy taken before start-up migrates write (see "Backups and restore")',
  },
  {
    names: ['BACKUP_KEEP'],
    default: '`14`',
    meaning: 'the daily backup keeps the newest this many backups in `BACKUP_DIR`',
  },
  {
    names: ['SMTP_URL'],
    default: 'none: no mail',
    meaning:
      '`smtp://user:password@mail.example.org:587` (STARTTLS when offered) or `smtps://…:465`; URL-encode special characters of the password',
  },
  {
    names: ['MAIL_FROM'],
    default: '`ADMIN_EMAIL`',
    meaning: 'sender, `stake@example.org` or `Stake <stake@example.org>`',
  },
  {
    names: ['REMIND_AFTER_HOURS'],
    default: '`72`',
    meaning: 'voters missing a vote on a proposal waiting longer than this get one automatic reminder',
  },
  {
    names: ['DAILY_HOUR'],
    default: '`7`',
    meaning: "local hour of the daily jobs (digests, automatic reminders, purge), in each stake's own time zone",
  },
]

const CONFIG_TABLE_BEGIN =
  '<!-- configuration table: npm run docs:config writes it from server/src/config.settings.ts -->'
const CONFIG_TABLE_END = '<!-- end of the configuration table -->'

/** The README's configuration table, as markdown. */
export function configTable(settings: SettingDoc[] = SETTINGS): string {
  const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')
  return [
    '| Variable | Default | Meaning |',
    '|---|---|---|',
    ...settings.map(
      (s) => `| ${s.names.map((n) => `\`${n}\``).join(', ')} | ${cell(s.default)} | ${cell(s.meaning)} |`,
    ),
  ].join('\n')
}

/** `text` with the table between its markers replaced by `table`; null when the markers are missing. */
export function withConfigTable(text: string, table = configTable()): string | null {
  const begin = text.indexOf(CONFIG_TABLE_BEGIN)
  const end = text.indexOf(CONFIG_TABLE_END)
  if (begin === -1 || end < begin) return null
  return `${text.slice(0, begin + CONFIG_TABLE_BEGIN.length)}\n\n${table}\n\n${text.slice(end)}`
}
