import fs from 'node:fs'
import path from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import type { DB } from './schema.ts'

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
 */
function sqliteDriver(raw: BetterSqlite3.Database) {
  const bind = (params: readonly unknown[]) => params.map((value) => (typeof value === 'boolean' ? Number(value) : value))
  return {
    close: () => raw.close(),
    prepare: (sql: string) => {
      const statement = raw.prepare(sql)
      return {
        reader: statement.reader,
        all: (params: readonly unknown[]) => statement.all(bind(params)),
        run: (params: readonly unknown[]) => statement.run(bind(params)),
        iterate: (params: readonly unknown[]) => statement.iterate(bind(params)),
      }
    },
  }
}

export function openSqlite(file: string): BetterSqlite3.Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  const database = new BetterSqlite3(file)
  database.pragma('journal_mode = WAL')
  database.pragma('foreign_keys = ON')
  database.pragma('busy_timeout = 5000')
  database.pragma('synchronous = NORMAL')
  return database
}

/** `sqlite:<path>` (`sqlite::memory:` for tests) or `postgres://...`. */
export function createDatabase(url: string, options: { poolSize?: number } = {}): Database {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length) || ':memory:'
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqliteDriver(openSqlite(file)) as never }) })
    return { db, dialect: 'sqlite', close: () => db.destroy() }
  }
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 })
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {})
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
