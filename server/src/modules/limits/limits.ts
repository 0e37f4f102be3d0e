import type { AppContext } from '../../context.ts'
import { addSeconds } from '../../clock.ts'
import type { Executor } from '../../db/types.ts'
import { retrying } from '../../db/transaction.ts'
import { tooManyAttempts } from '../auth/attempts.ts'
import { countHit, endWindow } from './limits.repository.ts'

/** One fixed-window limit: at most `limit` hits per key per `windowSeconds`. */
export interface LimitRule {
  bucket: string
  limit: number
  windowSeconds: number
}

/**
 * Every limit kept in the database (docs/SECURITY.md, "Limits kept in the
 * database"; the numbers are in docs/api-reference.md where each route is).
 * Sign-in throttling (S4) keeps its own table for its escalating account
 * lock (auth/throttle.repository.ts); everything else is counted here.
 */
export const LIMITS = {
  /** S21: anonymous `POST /auth/passkey-login/options` (each writes a challenge row) per client address. */
  passkeyOptions: { bucket: 'passkey_options_ip', limit: 300, windowSeconds: 15 * 60 },
  /** S21: `POST /stakes` attempts with a valid body per client address. */
  signup: { bucket: 'signup_ip', limit: 10, windowSeconds: 15 * 60 },
  /** S21: `POST /auth/password-reset` per client address (docs/api-reference.md §16). */
  passwordReset: { bucket: 'password_reset_ip', limit: 20, windowSeconds: 3600 },
  /** S20/S21: booking, moving and cancelling through booking links, per client address. */
  bookingIp: { bucket: 'booking_ip', limit: 60, windowSeconds: 3600 },
  /** S20: booking, moving and cancelling through one booking link. */
  bookingLink: { bucket: 'booking_link', limit: 10, windowSeconds: 3600 },
  /** S20: booking links made per user. */
  offers: { bucket: 'offers_user', limit: 50, windowSeconds: 3600 },
  /** S19: emails told to belong to another stake, per stake (or per address at signup). */
  emailOracle: { bucket: 'email_oracle', limit: 20, windowSeconds: 3600 },
  /**
   * One LCR report read at a time per stake (docs/api-reference.md §15), as a
   * lease: held while the report is read, given back at the end; a process
   * that dies holding it frees it when the window ends (a read stops at 10 s).
   */
  importRead: { bucket: 'import_read_stake', limit: 1, windowSeconds: 120 },
} as const satisfies Record<string, LimitRule>

/** A client address as a key (an IPv6 address with its zone fits; anything longer is cut, never stored whole). */
export const addressKey = (ip: string) => ip.slice(0, 64)

/**
 * Counts one hit of `rule` for `key` and refuses it, 429 `too_many_attempts`
 * with Retry-After (S4's answer), when it is past the limit. `db` may be the
 * caller's transaction (the count then commits or rolls back with it).
 */
export async function spend(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  rule: LimitRule,
  key: string,
  db: Executor = ctx.db,
): Promise<void> {
  const now = ctx.clock.now()
  const count = () =>
    countHit(db, rule.bucket, key, now.toISOString(), addSeconds(now, rule.windowSeconds).toISOString())
  // A lone statement is retried on contention; inside a transaction the transaction is.
  const hit = db === ctx.db ? await retrying(count) : await count()
  if (hit.hits > rule.limit) throw tooManyAttempts(Math.ceil((Date.parse(hit.window_end) - now.getTime()) / 1000))
}

/**
 * Runs `work` holding the lease `rule` (limit 1) on `key`, on every instance
 * over one database: while another holds it, `busy()` is thrown and nothing
 * runs. The lease is given back when `work` ends, however it ends.
 */
export async function withLease<T>(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  rule: LimitRule,
  key: string,
  busy: () => Error,
  work: () => Promise<T>,
): Promise<T> {
  const now = ctx.clock.now()
  const windowEnd = addSeconds(now, rule.windowSeconds).toISOString()
  const hit = await retrying(() => countHit(ctx.db, rule.bucket, key, now.toISOString(), windowEnd))
  if (hit.hits > rule.limit) throw busy()
  try {
    return await work()
  } finally {
    await retrying(() => endWindow(ctx.db, rule.bucket, key, hit.window_end))
  }
}
