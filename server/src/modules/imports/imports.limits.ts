import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { LIMITS, withLease } from '../limits/limits.ts'
import type { Executor } from '../../db/types.ts'
import { currentStakeId } from '../../db/stake-scope.ts'
import { IMPORTS_PER_HOUR, MAX_OPEN_PREVIEWS } from './limits.ts'

/**
 * The limits checked before a report is read (docs/api-reference.md §15):
 * one report read at a time per stake, open previews per stake, imports per
 * user and hour (counted from the stored imports). Over a limit: 429 naming
 * it, nothing read, nothing stored.
 */

const limited = (message: string) => new AppError(429, 'import_limit', message, { 'Retry-After': '60' })

/** Reports being read now by this server process (the tests wait for a read to be under way). */
let reading = 0

export const readsInProgress = (): number => reading

/**
 * Runs `read` as the stake's only read, on every instance over the database
 * (a lease in the limits table); a second one meanwhile is refused.
 */
export async function oneReadPerStake<T>(ctx: Pick<AppContext, 'db' | 'clock'>, read: () => Promise<T>): Promise<T> {
  const busy = () =>
    limited('Another report of this stake is being read; one import is read at a time per stake: try again in a moment')
  return withLease(ctx, LIMITS.importRead, String(currentStakeId()), busy, async () => {
    reading++
    try {
      return await read()
    } finally {
      reading--
    }
  })
}

/** The stake's open previews and the user's imports of the last hour, against their limits. */
export async function assertUnderLimits(db: Executor, userId: number, now: Date): Promise<void> {
  const iso = now.toISOString()
  const hourAgo = new Date(now.getTime() - 3600_000).toISOString()
  const [open, recent] = await Promise.all([
    db
      .selectFrom('imports')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'preview')
      .where('expires_at', '>', iso)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('imports')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('created_by', '=', userId)
      .where('created_at', '>', hourAgo)
      .executeTakeFirstOrThrow(),
  ])
  if (Number(recent.n) >= IMPORTS_PER_HOUR) {
    throw limited(`You previewed ${IMPORTS_PER_HOUR} reports in the last hour, the limit; try again later`)
  }
  if (Number(open.n) >= MAX_OPEN_PREVIEWS) {
    throw limited(
      `The stake has ${MAX_OPEN_PREVIEWS} open previews, the limit: apply them or let them expire (24 hours) first`,
    )
  }
}
