import { AppError } from '../errors.ts'

/**
 * Codes of a statement or transaction that lost to a concurrent one and may
 * simply run again: PostgreSQL's deadlock (40P01) and serialization failure
 * (40001) SQLSTATEs; better-sqlite3's codes for a database another connection
 * holds (the busy timeout ran out, or a WAL snapshot went stale when a reader
 * tried to write).
 */
const RETRYABLE = new Set([
  '40P01',
  '40001',
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_BUSY_RECOVERY',
  'SQLITE_BUSY_TIMEOUT',
  'SQLITE_LOCKED',
  'SQLITE_LOCKED_SHAREDCACHE',
])

/** True for a driver error caused by contention alone (read from `err.code`, never the message). */
export function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && RETRYABLE.has(code)
}

/** 503 busy: contention outlasted the retries; the client may try again after `seconds`. */
export function busy(seconds = 1, cause?: unknown): AppError {
  const error = new AppError(503, 'busy', 'The service is busy with concurrent changes; try again shortly', {
    'Retry-After': String(seconds),
  })
  if (cause !== undefined) error.cause = cause
  return error
}
