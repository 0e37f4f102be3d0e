import { sql } from 'kysely'
import type { Executor } from '../../db/types.ts'

export type ThrottleScope = 'account' | 'ip'

export interface AttemptRules {
  now: string
  /** Rows whose window started before this start a new window. */
  windowCutoff: string
  accountLimit: number
  ipLimit: number
  /**
   * When the account lock ends if the counted attempt is the limit-th,
   * (limit+1)-th, ...; the last entry serves every later attempt.
   */
  accountLocks: string[]
}

export interface AttemptVerdict {
  scope: ThrottleScope
  /** The attempt may go on to the password check. */
  allowed: boolean
  window_start: string
  locked_until: string | null
  /** The count after this attempt. */
  failures: number
}

/**
 * Counts one sign-in attempt for every key, before its password is checked
 * (S4), in ONE statement: an upsert per key row whose RETURNING says whether
 * this attempt is admitted. The database applies concurrent upserts of one
 * row one after another, so of N parallel attempts at most the limit are
 * admitted. Per row (`r` the stored row):
 * - window over (r.window_start before the cutoff): a fresh count of 1, admitted;
 * - account locked (r.locked_until after now), or the address at its limit:
 *   refused, nothing counted;
 * - otherwise counted and admitted; an account attempt that reaches the limit
 *   locks the account from now on (its lock grows with every further one).
 */
export async function countAttempt(
  db: Executor,
  keys: { scope: ThrottleScope; key: string }[],
  rules: AttemptRules,
): Promise<AttemptVerdict[]> {
  const { now, windowCutoff, accountLimit, ipLimit, accountLocks } = rules
  const r = (column: string) => sql.ref(`login_throttle.${column}`)
  const next = sql`${r('failures')} + 1`
  const lockSteps = accountLocks.slice(0, -1).map((until, i) => sql`when ${next} = ${accountLimit + i} then ${until}`)
  const lockAfter = sql`case when ${next} < ${accountLimit} then null ${sql.join(lockSteps, sql` `)} else ${accountLocks.at(-1)!} end`
  const fresh = sql`${r('window_start')} < ${windowCutoff}`
  const refuse = sql`((${r('scope')} = 'account' and ${r('locked_until')} > ${now}) or (${r('scope')} = 'ip' and ${r('failures')} >= ${ipLimit}))`
  const rows = keys.map(
    ({ scope, key }) =>
      sql`(${scope}, ${key}, 1, ${now}, ${scope === 'account' && accountLimit <= 1 ? accountLocks[0]! : null}, 1)`,
  )
  const result = await sql<{
    scope: ThrottleScope
    allowed: number
    window_start: string
    locked_until: string | null
    failures: number
  }>`
    insert into login_throttle (scope, key, failures, window_start, locked_until, allowed)
    values ${sql.join(rows)}
    on conflict (scope, key) do update set
      allowed = case when ${fresh} then 1 when ${refuse} then 0 else 1 end,
      failures = case when ${fresh} then 1 when ${refuse} then ${r('failures')} else ${next} end,
      window_start = case when ${fresh} then ${now} else ${r('window_start')} end,
      locked_until = case
        when ${fresh} then null
        when ${refuse} then ${r('locked_until')}
        when ${r('scope')} = 'account' then ${lockAfter}
        else null end
    returning scope, allowed, window_start, locked_until, failures`.execute(db)
  return result.rows.map((row) => ({ ...row, allowed: Number(row.allowed) === 1, failures: Number(row.failures) }))
}

export async function clearThrottle(db: Executor, scope: ThrottleScope, key: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('scope', '=', scope).where('key', '=', key).execute()
}

/** A successful sign-in was counted as an attempt of its address; it is not a failure (a row left at 0 goes). */
export async function uncount(db: Executor, scope: ThrottleScope, key: string): Promise<void> {
  await db
    .updateTable('login_throttle')
    .set((eb) => ({ failures: eb('failures', '-', 1) }))
    .where('scope', '=', scope)
    .where('key', '=', key)
    .where('failures', '>', 0)
    .execute()
  await db
    .deleteFrom('login_throttle')
    .where('scope', '=', scope)
    .where('key', '=', key)
    .where('failures', '<=', 0)
    .execute()
}

/**
 * Housekeeping: rows whose window began before `windowStartCutoff` and that
 * hold no lock now. They decide nothing: the next failure would restart the
 * count at 1, exactly as for a key without a row.
 */
export async function purgeStaleThrottle(db: Executor, now: string, windowStartCutoff: string): Promise<number> {
  const result = await db
    .deleteFrom('login_throttle')
    .where('window_start', '<', windowStartCutoff)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
