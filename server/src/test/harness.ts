import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before } from 'node:test'
import pg from 'pg'
import { buildApp, type AppDeps } from '../app.ts'
import { parseConfig, type Config } from '../config.ts'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/database.ts'
import { createDatabase, stakeScopePlugin } from '../database.ts'
import { migrate } from '../db/migrate.ts'
import type { FastifyTypebox } from '../http.ts'
import { PasswordHasher } from '../modules/auth/passwords.ts'

/** Cheap argon2id for tests: configured, not a separate code path. */
export const TEST_ARGON2 = { memoryCost: 256, timeCost: 1, parallelism: 1 }

export const dialect = (process.env.TEST_DIALECT ?? 'sqlite') as 'sqlite' | 'postgres'

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  private current: number
  constructor(start = Date.parse('2026-03-01T12:00:00.000Z')) {
    this.current = start
  }
  now(): Date {
    return new Date(this.current)
  }
  iso(): string {
    return this.now().toISOString()
  }
  advance(seconds: number): void {
    this.current += seconds * 1000
  }
  set(date: Date): void {
    this.current = date.getTime()
  }
}

/**
 * Tests' own queries (`t.database.db`) run in the default stake when they
 * name none, like an operator's; the app's never do (db/stake-scope.ts). On
 * PostgreSQL they connect as the superuser, past row-level security.
 */
const DIRECT_SCOPE = { stakeId: 1 }
const strict = (db: Database['db']) => db.withoutPlugins().withPlugin(stakeScopePlugin(null))

export interface TestApp {
  app: FastifyTypebox
  database: Database
  /** The app's own handle: no default stake; on PostgreSQL the role row-level security holds. */
  appDb: Database['db']
  clock: TestClock
  config: Config
  hasher: PasswordHasher
  /**
   * The database's URL (PostgreSQL: as the superuser), for a process the test
   * runs against it (the CLI). On SQLite only with `shareable` (a file; else memory).
   */
  databaseUrl: string
}

/** Runs one statement as the run's PostgreSQL superuser (CREATE or DROP DATABASE), on a connection of its own. */
export async function pgAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_PG_URL })
  await client.connect()
  await client.query(statement).finally(() => client.end())
}

/**
 * A fresh, migrated database for one test file: SQLite in memory, or a
 * PostgreSQL database cloned from the migrated template that scripts/test.mjs
 * prepared, dropped again afterwards.
 */
async function freshDatabase(
  shareable = false,
  walls: AppWalls = 'both',
): Promise<{
  database: Database
  appDb: Database['db']
  url: string
  drop: () => Promise<void>
}> {
  if (dialect === 'sqlite') {
    const dir = shareable ? fs.mkdtempSync(path.join(os.tmpdir(), 'stake-test-')) : null
    const url = dir ? `sqlite:${path.join(dir, 'stake.db')}` : 'sqlite::memory:'
    const database = createDatabase(url, { fallbackScope: DIRECT_SCOPE })
    await migrate(database.db)
    // The same connection, without the tests' default stake: the app's queries need their own.
    return {
      database,
      appDb: strict(database.db),
      url,
      drop: async () => {
        if (dir) fs.rmSync(dir, { recursive: true, force: true })
      },
    }
  }
  const adminUrl = process.env.TEST_PG_URL
  const template = process.env.TEST_PG_TEMPLATE
  if (!adminUrl || !template) throw new Error('TEST_PG_URL and TEST_PG_TEMPLATE are set by scripts/test.mjs')
  // Named after the run's template, so scripts/test.mjs can drop leftovers of a crashed file.
  const name = `${template}_f_${crypto.randomBytes(6).toString('hex')}`
  await pgAdmin(`CREATE DATABASE ${name} TEMPLATE ${template}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const database = createDatabase(url.toString(), { poolSize: 4, fallbackScope: DIRECT_SCOPE })
  await migrate(database.db) // no-op on the template's schema; runs anything newer
  // The server connects as a role that row-level security holds (scripts/test.mjs made it).
  const appUrl = new URL(url)
  // 'filters': as the superuser, which row-level security does not hold.
  if (walls !== 'filters') appUrl.username = process.env.TEST_PG_APP_ROLE ?? appUrl.username
  const app = createDatabase(appUrl.toString(), { poolSize: 8 })
  return {
    database: { ...database, close: () => Promise.all([app.close(), database.close()]).then(() => undefined) },
    // 'rls': without the query plugin; PostgreSQL's column default app_stake_id() fills inserts' stake_id.
    appDb: walls === 'rls' ? app.db.withoutPlugins() : app.db,
    url: url.toString(),
    drop: () => pgAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  }
}

/**
 * Which of the two walls of docs/api-reference.md §14 hold the app's queries
 * on PostgreSQL: both (as the app runs), the query filters alone (the app
 * connected as the superuser, past row-level security), or row-level security
 * alone (the app's handle without the StakeScopePlugin). SQLite has only the
 * filters: anything but 'both' is refused there.
 */
export type AppWalls = 'both' | 'filters' | 'rls'

export interface TestAppOptions {
  /** The isolation matrix's configurations (default 'both'). */
  walls?: AppWalls
  /** pino options, for a test about what is logged (default: no logging). */
  logger?: AppDeps['logger']
  /** Settings that have no environment variable (e.g. webDist, the built client to serve). */
  config?: Partial<Config>
  /** SQLite in a file rather than in memory, so another process (the CLI) can open it: `databaseUrl`. */
  shareable?: boolean
}

export async function createTestApp(
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp & { close(): Promise<void> }> {
  const walls = options.walls ?? 'both'
  if (walls !== 'both' && dialect !== 'postgres') throw new Error(`walls: '${walls}' needs PostgreSQL`)
  const { database, appDb, url, drop } = await freshDatabase(options.shareable, walls)
  const clock = new TestClock()
  const config: Config = { ...parseConfig(env), argon2: TEST_ARGON2, ...options.config }
  const app = await buildApp({ config, db: appDb, dialect: database.dialect, clock, logger: options.logger })
  await app.ready()
  return {
    app,
    database,
    appDb,
    clock,
    config,
    hasher: new PasswordHasher(TEST_ARGON2),
    databaseUrl: url,
    async close() {
      await app.close()
      await database.close().catch(() => {}) // a test may have closed it already
      await drop()
    },
  }
}

/**
 * One app and database per test file: `const t = useTestApp()` at the top of
 * the file, then `t.app`, `t.clock`... inside the tests.
 */
export function useTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): TestApp {
  const holder = {} as TestApp & { close(): Promise<void> }
  before(async () => {
    Object.assign(holder, await createTestApp(env, options))
  })
  after(async () => {
    await holder.close?.()
  })
  return holder
}

/**
 * A second instance of the app over the test app's database, as a second
 * server behind a load balancer would be: its own connections and its own
 * process memory (a fresh buildApp), the same configuration and clock. On
 * SQLite the test app must be `shareable` (a file both connections open).
 */
export async function createSecondInstance(t: TestApp): Promise<{ app: FastifyTypebox; close(): Promise<void> }> {
  let database: Database
  let appDb: Database['db']
  if (dialect === 'sqlite') {
    if (t.databaseUrl === 'sqlite::memory:') throw new Error('createSecondInstance needs the test app made shareable')
    database = createDatabase(t.databaseUrl)
    appDb = strict(database.db)
  } else {
    const url = new URL(t.databaseUrl)
    url.username = process.env.TEST_PG_APP_ROLE ?? url.username
    database = createDatabase(url.toString(), { poolSize: 4 })
    appDb = database.db
  }
  const app = await buildApp({ config: t.config, db: appDb, dialect: database.dialect, clock: t.clock })
  await app.ready()
  return {
    app,
    async close() {
      await app.close()
      await database.close()
    },
  }
}
