import fs from 'node:fs'
import path from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'
import { Kysely, PostgresDialect, SqliteDialect, type Transaction } from 'kysely'
import type { DB } from './schema.ts'
import { guardedPool, type ErrorSink, type PgTimeouts } from './pg-pool.ts'

export type Dialect = 'sqlite' | 'postgres'

export interface Database {
  db: Kysely<DB>
  dialect: Dialect
  close(): Promise<void>
}

// COUNT(*) and BIGINT come back from pg as strings; our counts fit in a double.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10))

/**
 * The better-sqlite3 connection behind a Kysely instance, with prepared
 * statements kept per SQL text. Preparing is the most expensive step of a
 * small query, and Kysely produces the same SQL text for the same query shape.
 *
 * better-sqlite3 refuses to bind JavaScript booleans. SQLite stores them as
 * 0/1 anyway, so values are converted on the way in; mappers read them back
 * with `Boolean(...)` on both dialects.
 */
export class SqliteConnection {
  private readonly statements = new Map<string, BetterSqlite3.Statement>()

  constructor(readonly raw: BetterSqlite3.Database) {}

  private statement(sql: string): BetterSqlite3.Statement {
    return prepared(this.statements, sql, () => this.raw.prepare(sql))
  }

  private readonly plucking = new Map<string, BetterSqlite3.Statement>()

  /**
   * Runs a query now and answers the first column of its first row. Without
   * row objects: better-sqlite3 builds each row object property by property,
   * which costs more than a small indexed query. (Plucking is a mode of the
   * statement object, so these statements are kept apart from Kysely's.)
   */
  value<T>(sql: string, params: readonly unknown[]): T | undefined {
    const statement = prepared(this.plucking, sql, () => this.raw.prepare(sql).pluck())
    return statement.get(params.map(toSqliteValue)) as T | undefined
  }

  /** Runs one statement now; rows for a query, none for a write without RETURNING. */
  execute<Row>(sql: string, params: readonly unknown[]): Row[] {
    const statement = this.statement(sql)
    const values = params.map(toSqliteValue)
    if (statement.reader) return statement.all(values) as Row[]
    statement.run(values)
    return []
  }

  /** The driver Kysely's SqliteDialect calls. */
  driver() {
    return {
      close: () => this.raw.close(),
      prepare: (sql: string) => {
        // SQLite rolls a transaction back on its own after some errors
        // (SQLITE_FULL, SQLITE_IOERR, SQLITE_BUSY...); Kysely's ROLLBACK would
        // then fail with "no transaction is active" and hide the real error.
        if (sql === 'rollback' && !this.raw.inTransaction) return NOTHING_TO_ROLL_BACK
        const statement = this.statement(sql)
        return {
          reader: statement.reader,
          all: (params: readonly unknown[]) => statement.all(params.map(toSqliteValue)),
          run: (params: readonly unknown[]) => statement.run(params.map(toSqliteValue)),
          iterate: (params: readonly unknown[]) => statement.iterate(params.map(toSqliteValue)),
        }
      },
    }
  }
}

/** The statement kept for `sql`, prepared on first use (at most 2,000 kept: a runaway of distinct texts cannot grow it). */
function prepared(kept: Map<string, BetterSqlite3.Statement>, sql: string, prepare: () => BetterSqlite3.Statement) {
  let statement = kept.get(sql)
  if (!statement) {
    statement = prepare()
    if (kept.size >= 2000) kept.clear()
    kept.set(sql, statement)
  }
  return statement
}

const NOTHING_TO_ROLL_BACK = { reader: false, all: () => [], run: () => ({ changes: 0, lastInsertRowid: 0 }), iterate: () => [][Symbol.iterator]() }

const toSqliteValue = (value: unknown) => (typeof value === 'boolean' ? Number(value) : value)

const sqliteConnections = new WeakMap<Kysely<DB>, SqliteConnection>()

/**
 * The SQLite connection to run a statement on directly — synchronously,
 * without Kysely's asynchronous driver path — or null when that is not safe:
 * PostgreSQL, an open transaction object, or a transaction open on the
 * connection (a statement run beside it would join it and could read its
 * uncommitted rows). Used only by `precompiled` queries on hot paths.
 */
export function directSqlite(db: Kysely<DB> | Transaction<DB>): SqliteConnection | null {
  const connection = sqliteConnections.get(db as Kysely<DB>)
  return connection && !connection.raw.inTransaction ? connection : null
}

export function openSqlite(file: string, busyTimeoutMs = DEFAULT_TIMEOUTS.sqliteBusyTimeoutMs): BetterSqlite3.Database {
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
export const DEFAULT_TIMEOUTS: DatabaseTimeouts = { connectTimeoutMs: 3000, statementTimeoutMs: 5000, sqliteBusyTimeoutMs: 2000 }

export interface DatabaseOptions {
  poolSize?: number
  timeouts?: DatabaseTimeouts
  /** Connection failures outside any query (default: written to stderr). A database error never ends the process. */
  onError?: ErrorSink
}

const logToStderr: ErrorSink = (error, where) => console.error(`database ${where} error: ${error.message}`)

/** `sqlite:<path>` (`sqlite::memory:` for tests) or `postgres://...`. */
export function createDatabase(url: string, options: DatabaseOptions = {}): Database {
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length) || ':memory:'
    const connection = new SqliteConnection(openSqlite(file, timeouts.sqliteBusyTimeoutMs))
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: connection.driver() as never }) })
    sqliteConnections.set(db, connection)
    return { db, dialect: 'sqlite', close: () => db.destroy() }
  }
  const { pool } = guardedPool(url, options.poolSize ?? 10, timeouts, options.onError ?? logToStderr)
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) })
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
