import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'

/**
 * The database could not be reached or could not serve in time: the pool gave
 * no connection, the connection broke or fell silent. Thrown by the guarded
 * pool (db/pg-pool.ts) in place of the driver's own error, which carries no
 * code to tell it apart from a programming error.
 */
export class DatabaseUnavailable extends Error {
  constructor(cause: unknown) {
    super(`Database unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
    this.name = 'DatabaseUnavailable'
  }
}

/**
 * PostgreSQL SQLSTATEs meaning "not now" rather than "never": the server is
 * shutting down or starting (57P01–57P03), the connection failed (class 08),
 * resources ran out (class 53: disk full, out of memory, too many
 * connections), a statement or lock wait hit its timeout (57014, 55P03), or
 * the server is a read-only standby (25006).
 */
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '57014', '55P03', '25006'])
const PG_UNAVAILABLE_CLASSES = new Set(['08', '53'])

/**
 * SQLite primary result codes meaning the file cannot take the work now:
 * locked by another process beyond the busy timeout, disk full, read-only
 * file or file system, I/O failure, file gone. Extended codes
 * (`SQLITE_IOERR_WRITE`, `SQLITE_READONLY_DBMOVED`...) share their primary's prefix.
 */
const SQLITE_UNAVAILABLE = new Set([
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_FULL',
  'SQLITE_READONLY',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
])

/** Whether `error` means the database is unavailable (answered 503 + Retry-After), decided by its type and code. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailable) return true
  if (error instanceof pg.DatabaseError) {
    const code = error.code ?? ''
    return PG_UNAVAILABLE.has(code) || PG_UNAVAILABLE_CLASSES.has(code.slice(0, 2))
  }
  if (error instanceof BetterSqlite3.SqliteError) {
    const primary = error.code.split('_', 2).join('_')
    return SQLITE_UNAVAILABLE.has(primary)
  }
  return false
}
