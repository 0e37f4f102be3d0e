import type { FastifyBaseLogger } from 'fastify'
import { sql, type Kysely } from 'kysely'
import { dialectOf } from './db/dialect.ts'
import { inStake } from './db/stake-scope.ts'
import { configWarnings, type Config } from './config.ts'
import type { DB } from './db/schema.ts'
import { ensureBootstrapAdmin } from './modules/auth/bootstrap.ts'
import { PasswordHasher } from './modules/auth/passwords.ts'

/** The first start's one-time sign-in, shown once in the start-up box. */
export interface FirstRun {
  email: string
  password: string
}

/**
 * Work done once per start, after migrations: warnings about risky settings, the bootstrap administrator.
 * Returns the generated password to show once (never written to the JSON log).
 */
export async function startupTasks(
  app: { log: Pick<FastifyBaseLogger, 'warn' | 'info'> },
  config: Config,
  db: Kysely<DB>,
): Promise<FirstRun | null> {
  for (const warning of configWarnings(config)) app.log.warn(warning)
  if (await bypassesRowSecurity(db)) {
    app.log.warn(
      'The database role bypasses row-level security (a superuser or BYPASSRLS): stakes are then kept apart by the ' +
        'queries\' filters alone. Connect as a role without those rights (README, "Running it for real").',
    )
  }
  // A new database's first administrator belongs to the default stake.
  const admin = await inStake(config.defaultStakeId, () =>
    ensureBootstrapAdmin(
      db,
      new PasswordHasher(config.argon2),
      config.adminEmail,
      config.initialAdminPassword,
      new Date(),
    ),
  )
  if (!admin.created) return null
  app.log.info({ email: config.adminEmail }, 'bootstrap administrator created')
  return admin.generatedPassword ? { email: config.adminEmail, password: admin.generatedPassword } : null
}

/** PostgreSQL: whether the server's role skips row-level security (the second wall between stakes). */
export async function bypassesRowSecurity(db: Kysely<DB>): Promise<boolean> {
  if (dialectOf(db) !== 'postgres') return false
  const { rows } = await sql<{ bypass: boolean }>`
    SELECT rolsuper OR rolbypassrls AS bypass FROM pg_roles WHERE rolname = current_user`.execute(db)
  return rows[0]?.bypass === true
}

/**
 * The last thing a start prints: the address, and on the first start the
 * administrator's one-time sign-in, framed so it is not lost in the output.
 */
export function startupBanner(url: string, firstRun: FirstRun | null): string {
  const lines = [`Stake Administration Service is running at ${url}`, `API documentation: ${url}docs`]
  if (firstRun) {
    lines.push(
      '',
      'First start: sign in as the administrator',
      `  Email:              ${firstRun.email}`,
      `  One-time password:  ${firstRun.password}`,
      'You will choose your own password; this one is not shown again.',
    )
  }
  const width = Math.max(...lines.map((line) => line.length))
  const rule = '─'.repeat(width + 2)
  return ['', `┌${rule}┐`, ...lines.map((line) => `│ ${line.padEnd(width)} │`), `└${rule}┘`, ''].join('\n')
}
