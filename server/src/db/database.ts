import fs from 'node:fs'
import path from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import type { DB } from './schema.ts'
import { DEFAULT_PREPARED_STATEMENTS } from './pg-statements.ts'
import { guardedPool, type ErrorSink, type PgTimeouts } from './pg-pool.ts'
import { StakeScopePlugin, type StakeScope } from './stake-scope.ts'

export type Dialect = 'sqlite' | 'postgres'

export interface Database {
  db: Kysely<DB>
  dialect: Dialect
  close(): Promise<void>
}

// COUNT(*) and BIGINT come back from pg as strings; our counts fit in a double.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10))

/**
 * Kysely's SqliteDialect over a better-sqlite3 connection. better-sqlite3
 * refuses to bind JavaScript booleans; SQLite stores them as 0/1 anyway, so
 * values are converted on the way in, and mappers read them back with
 * `Boolean(...)` on both dialects.
 *
 * Kysely asks for a statement at every execution, and SQLite compiles the
 * text each time it is prepared: the connection keeps up to `capacity`
 * compiled statements by their text (the least recently used dropped first;
 * 0 keeps none), the SQLite side of pg-statements.ts. Kysely runs one query
 * at a time on the connection; should a kept statement still be reading rows
 * for an unfinished `iterate`, the same text gets a fresh statement.
 * A schema change recompiles a kept statement by itself (sqlite3_prepare_v3).
 */
function sqliteDriver(raw: BetterSqlite3.Database, capacity: number) {
  const bind = (params: readonly unknown[]) =>
    params.map((value) => (typeof value === 'boolean' ? Number(value) : value))
  const kept = new Map<string, BetterSqlite3.Statement>()
  const statementFor = (sql: string): BetterSqlite3.Statement => {
    const known = kept.get(sql)
    if (known && !known.busy) {
      kept.delete(sql)
      kept.set(sql, known)
      return known
    }
    const statement = raw.prepare(sql)
    if (capacity > 0 && !known) {
      kept.set(sql, statement)
      if (kept.size > capacity) kept.delete(kept.keys().next().value!)
    }
    return statement
  }
  return {
    close: () => raw.close(),
    prepare: (sql: string) => {
      // SQLite rolls a transaction back on its own after some errors
      // (SQLITE_FULL, SQLITE_IOERR, SQLITE_BUSY...); Kysely's ROLLBACK would
      // then fail with "no transaction is active" and hide the real error.
      if (sql === 'rollback' && !raw.inTransaction) return NOTHING_TO_ROLL_BACK
      // A transaction takes the file's write lock when it begins, waiting for
      // it (busy timeout) while another process holds it. Begun deferred, it
      // would read a snapshot first and then, when another process had written
      // since, fail at its first write (SQLITE_BUSY_SNAPSHOT) and start over;
      // with two workers writing at once, five tries were not always enough.
      const statement = statementFor(sql === 'begin' ? 'begin immediate' : sql)
      return {
        reader: statement.reader,
        all: (params: readonly unknown[]) => statement.all(bind(params)),
        run: (params: readonly unknown[]) => statement.run(bind(params)),
        iterate: (params: readonly unknown[]) => statement.iterate(bind(params)),
      }
    },
  }
}

const NOTHING_TO_ROLL_BACK = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
}

function openSqlite(file: string, busyTimeoutMs = DEFAULT_TIMEOUTS.sqliteBusyTimeoutMs): BetterSqlite3.Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  const database = new BetterSqlite3(file)
  database.pragma('journal_mode = WAL')
  database.pragma('foreign_keys = ON')
  database.pragma(`busy_timeout = ${busyTimeoutMs}`)
  database.pragma('synchronous = NORMAL')
  return database
}

export interface DatabaseTimeouts extends PgTimeouts {
  /** How long a SQLite write waits for another process's lock (blocks the event loop meanwhile). */
  sqliteBusyTimeoutMs: number
}

/** The defaults of config.ts, for callers without a configuration (tests, CLI). */
export const DEFAULT_TIMEOUTS: DatabaseTimeouts = {
  connectTimeoutMs: 3000,
  statementTimeoutMs: 5000,
  sqliteBusyTimeoutMs: 2000,
}

export interface DatabaseOptions {
  /** The stake-owned tables the scope plugin filters (the app's: modules/tables.ts, derived from the declarations). */
  stakeTables: ReadonlySet<string>
  poolSize?: number
  timeouts?: DatabaseTimeouts
  /** Connection failures outside any query (default: written to stderr). A database error never ends the process. */
  onError?: ErrorSink
  /**
   * The stake of queries run outside any stake context (stake-scope.ts):
   * none by default — such a query on a stake-owned table throws. Tests'
   * direct access to their database works in the default stake.
   */
  fallbackScope?: StakeScope | null
  /**
   * Statements each connection keeps compiled (default DEFAULT_PREPARED_STATEMENTS; 0 none): named
   * prepared statements on PostgreSQL (pg-statements.ts), kept statements on SQLite (sqliteDriver).
   */
  preparedStatements?: number
}

const logToStderr: ErrorSink = (error, where) => console.error(`database ${where} error: ${error.message}`)

/** `sqlite:<path>` (`sqlite::memory:` for tests) or `postgres://...`. */
export function createDatabase(url: string, options: DatabaseOptions): Database {
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length) || ':memory:'
    const raw = openSqlite(file, timeouts.sqliteBusyTimeoutMs)
    const db = new Kysely<DB>({
      dialect: new SqliteDialect({
        database: sqliteDriver(raw, options.preparedStatements ?? DEFAULT_PREPARED_STATEMENTS) as never,
      }),
      plugins: [new StakeScopePlugin(options.stakeTables, options.fallbackScope ?? null)],
    })
    return { db, dialect: 'sqlite', close: () => db.destroy() }
  }
  const { pool } = guardedPool(
    url,
    options.poolSize ?? 10,
    timeouts,
    options.onError ?? logToStderr,
    options.fallbackScope ?? null,
    options.preparedStatements,
  )
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new StakeScopePlugin(options.stakeTables, options.fallbackScope ?? null)],
  })
  return { db, dialect: 'postgres', close: () => db.destroy() }
}

/** Unique-constraint violation on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string } | null
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}

/** Foreign-key violation on either database. */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string } | null
  return e?.code === '23503' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
}
