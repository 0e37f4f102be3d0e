import type { IsolationLevel, Kysely, Transaction } from 'kysely'
import type { DB } from './schema.ts'
import { busy, isRetryable } from './errors.ts'

export interface RetryPolicy {
  /** Runs in all, the first included. */
  attempts: number
  /** Backoff before the n-th retry: up to baseDelayMs · 2^(n-1), capped, with full jitter. */
  baseDelayMs: number
  maxDelayMs: number
  sleep: (ms: number) => Promise<void>
  random: () => number
}

const RETRY: RetryPolicy = {
  attempts: 5,
  baseDelayMs: 5,
  maxDelayMs: 100,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
}

/**
 * Runs `fn` and runs it again when it fails only because a concurrent
 * transaction won (a deadlock, a serialization failure, a busy SQLite file):
 * at most `attempts` runs, with jittered exponential backoff so the losers do
 * not collide again in step. Past the last run: 503 busy with Retry-After,
 * never a 500. `fn` may run several times, so it must have no effect outside
 * the database (no cache writes, no messages sent, no clock-dependent ids
 * that must not change).
 */
export async function retrying<T>(fn: () => Promise<T>, policy: Partial<RetryPolicy> = {}): Promise<T> {
  const p = { ...RETRY, ...policy }
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn()
    } catch (error) {
      if (!isRetryable(error)) throw error
      if (attempt >= p.attempts) throw busy(1, error)
      const ceiling = Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** (attempt - 1))
      await p.sleep(Math.round(p.random() * ceiling))
    }
  }
}

/**
 * The one way to run a write transaction: `fn` gets the transaction and is
 * retried as a whole (`retrying`). Take locks in the documented order
 * (ARCHITECTURE.md, "Lock order").
 */
export function withTransaction<T>(
  db: Kysely<DB>,
  fn: (trx: Transaction<DB>) => Promise<T>,
  options: { isolation?: IsolationLevel; retry?: Partial<RetryPolicy> } = {},
): Promise<T> {
  return retrying(() => {
    const builder = db.transaction()
    return (options.isolation ? builder.setIsolationLevel(options.isolation) : builder).execute(fn)
  }, options.retry)
}
