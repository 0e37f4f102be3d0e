import type { AppContext } from '../../context.ts'
import { addSeconds } from '../../clock.ts'
import { AppError } from '../../errors.ts'
import type { Executor } from '../../db/types.ts'
import { withTransaction } from '../../db/transaction.ts'
import type { AuditDetail, AuditTarget } from '../../events/types.ts'
import { audited, record } from '../../events/record.ts'
import * as throttle from './throttle.repository.ts'

/** docs/api-reference.md §3 throttling numbers. */
export const THROTTLE = {
  windowSeconds: 15 * 60,
  accountFailures: 5,
  ipFailures: 100,
  /** First account lock; doubles with every further attempt, up to the window. */
  accountLockSeconds: 30,
}

export interface AttemptKeys {
  /** The account's email key. */
  account: string
  /** The client address; omitted where only the account is throttled (a wrong old_password). */
  ip?: string
}

/** What an admitted attempt will lock if its password turns out wrong: the account, the address, both or neither. */
export interface Admission {
  at: string
  locks: { scope: throttle.ThrottleScope; key: string; until: string }[]
}

/**
 * Password checks throttled per account and per address (docs/api-reference.md §3, S4):
 * every attempt is counted before the password is checked (`admit`), and a
 * correct password clears the account's count (`succeeded`).
 */
export class SignInAttempts {
  constructor(private readonly ctx: AppContext) {}

  private keys(keys: AttemptKeys) {
    return [
      { scope: 'account' as const, key: keys.account },
      ...(keys.ip === undefined ? [] : [{ scope: 'ip' as const, key: keys.ip }]),
    ]
  }

  /** Counts the attempt; 429 too_many_attempts (with Retry-After) when it may not go on to the password check. */
  async admit(keys: AttemptKeys): Promise<Admission> {
    const now = this.ctx.clock.now()
    const locks = []
    for (let extra = 0; THROTTLE.accountLockSeconds * 2 ** extra < THROTTLE.windowSeconds; extra++) {
      locks.push(addSeconds(now, THROTTLE.accountLockSeconds * 2 ** extra).toISOString())
    }
    locks.push(addSeconds(now, THROTTLE.windowSeconds).toISOString())
    const verdicts = await throttle.countAttempt(this.ctx.db, this.keys(keys), {
      now: now.toISOString(),
      windowCutoff: addSeconds(now, -THROTTLE.windowSeconds).toISOString(),
      accountLimit: THROTTLE.accountFailures,
      ipLimit: THROTTLE.ipFailures,
      accountLocks: locks,
    })
    const until = verdicts
      .filter((v) => !v.allowed)
      .map((v) =>
        v.scope === 'account'
          ? v.locked_until!
          : addSeconds(new Date(v.window_start), THROTTLE.windowSeconds).toISOString(),
      )
      .sort()
      .at(-1)
    if (until) throw tooManyAttempts(Math.ceil((Date.parse(until) - now.getTime()) / 1000))
    const nowIso = now.toISOString()
    const set: Admission['locks'] = []
    for (const v of verdicts) {
      if (v.scope === 'account' && v.locked_until !== null && v.locked_until > nowIso) {
        set.push({ scope: 'account', key: keys.account, until: v.locked_until })
      }
      if (v.scope === 'ip' && v.failures >= THROTTLE.ipFailures) {
        const until = addSeconds(new Date(v.window_start), THROTTLE.windowSeconds).toISOString()
        set.push({ scope: 'ip', key: keys.ip!, until })
      }
    }
    return { at: nowIso, locks: set }
  }

  /**
   * The password was wrong: the locks this attempt set are audit entries
   * (`auth.lock`), inside the caller's transaction. An account lock names
   * the user when the email belongs to one (`target`), never the email typed.
   */
  async recordLocks(trx: Executor, admission: Admission, target: AuditTarget | null): Promise<void> {
    for (const lock of admission.locks) {
      const detail: AuditDetail = { scope: lock.scope, until: lock.until }
      if (lock.scope === 'ip') detail.ip = lock.key
      await record(
        trx,
        this.ctx,
        audited({ by: null, at: admission.at }, 'auth.lock', lock.scope === 'account' ? target : null, detail),
      )
    }
  }

  /** A sign-in failed: its `auth.login_failed` entry and its locks, in their own transaction (the 401 commits nothing else). */
  async signInFailed(
    admission: Admission,
    target: AuditTarget | null,
    failure: { at: string; reason: string; ip: string },
  ) {
    const { at, ...detail } = failure
    await withTransaction(this.ctx.db, async (trx) => {
      await record(trx, this.ctx, audited({ by: null, at }, 'auth.login_failed', target, detail))
      await this.recordLocks(trx, admission, target)
    })
  }

  /** The password was right: the account's count starts again, and the address's attempt was no failure. */
  async succeeded(keys: AttemptKeys): Promise<void> {
    await throttle.clearThrottle(this.ctx.db, 'account', keys.account)
    if (keys.ip !== undefined) await throttle.uncount(this.ctx.db, 'ip', keys.ip)
  }
}

export const tooManyAttempts = (retryAfterSeconds: number) =>
  new AppError(429, 'too_many_attempts', 'Too many attempts. Try again later.', {
    'Retry-After': String(Math.max(1, retryAfterSeconds)),
  })
