import type { Executor } from '../../db/types.ts'

export type ThrottleScope = 'account' | 'ip'

export function findLocks(db: Executor, keys: { scope: ThrottleScope; key: string }[], now: string) {
  return db
    .selectFrom('login_throttle')
    .select(['scope', 'key', 'locked_until'])
    .where((eb) => eb.or(keys.map((k) => eb.and([eb('scope', '=', k.scope), eb('key', '=', k.key)]))))
    .where('locked_until', '>', now)
    .execute()
}

/**
 * Counts one failure atomically (an upsert, so concurrent failures are all
 * counted) and returns the count within the current window.
 */
export async function countFailure(
  db: Executor,
  scope: ThrottleScope,
  key: string,
  now: string,
  windowStartCutoff: string,
): Promise<{ failures: number; window_start: string }> {
  return db
    .insertInto('login_throttle')
    .values({ scope, key, failures: 1, window_start: now, locked_until: null })
    .onConflict((oc) =>
      oc.columns(['scope', 'key']).doUpdateSet((eb) => ({
        failures: eb
          .case()
          .when('login_throttle.window_start', '<', windowStartCutoff)
          .then(1)
          .else(eb('login_throttle.failures', '+', 1))
          .end(),
        window_start: eb
          .case()
          .when('login_throttle.window_start', '<', windowStartCutoff)
          .then(now)
          .else(eb.ref('login_throttle.window_start'))
          .end(),
      })),
    )
    .returning(['failures', 'window_start'])
    .executeTakeFirstOrThrow()
}

export async function setLock(db: Executor, scope: ThrottleScope, key: string, until: string): Promise<void> {
  await db.updateTable('login_throttle').set({ locked_until: until }).where('scope', '=', scope).where('key', '=', key).execute()
}

export async function clearThrottle(db: Executor, scope: ThrottleScope, key: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('scope', '=', scope).where('key', '=', key).execute()
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
