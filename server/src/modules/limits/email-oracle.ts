import crypto from 'node:crypto'
import type { AppContext } from '../../context.ts'
import { addSeconds } from '../../clock.ts'
import { acrossStakes, currentStakeId } from '../../db/stake-scope.ts'
import { retrying } from '../../db/transaction.ts'
import { tooManyAttempts } from '../auth/attempts.ts'
import { emailKey } from '../users/users.repository.ts'
import { LIMITS } from './limits.ts'
import { countHit, emailOwners, liveKeys, peekHits } from './limits.repository.ts'

/** Who is told: a stake (user creation and imports share its budget), or a client address (signup, no stake yet). */
export type Asker = { stakeId: number } | { address: string }

interface Screened {
  /** Emails a user of another stake has, and this asker may be told so. */
  taken: Set<string>
  /**
   * Emails about which nothing is told: the budget is spent, so every email
   * not of the asker's own stake is withheld alike, whether or not another
   * stake has it — a withheld answer says nothing about the email.
   */
  withheld: Set<string>
  /** When withheld emails may be asked about again: the end of the spent budget's window (ISO). */
  retryAt: string | null
}

const TOLD = 'email_told'
const askerKey = (asker: Asker) => ('stakeId' in asker ? `stake:${asker.stakeId}` : `ip:${asker.address.slice(0, 64)}`)
// Only a hash of another stake's email is kept, beside the asker it was told to.
const toldKey = (asker: string, key: string) => `${asker}:${crypto.createHash('sha256').update(key).digest('hex')}`

/**
 * S19, no bulk oracle (docs/SECURITY.md): whether an email belongs to another
 * stake is told at most `LIMITS.emailOracle.limit` times per window per
 * asker. Each email told spends one (an email already told in the window is
 * told again for free, so an import's apply agrees with its preview); once
 * the budget is spent, every later email that is not the asker's own stake's
 * is withheld. Emails of the asker's own stake are neither (its own
 * uniqueness answers for them). Counts are in `rate_limits`, so every
 * instance shares them. Keys are compared as `emailKey` (lower, trimmed).
 */
async function screenEmails(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  asker: Asker,
  emails: (string | null | undefined)[],
): Promise<Screened> {
  const { db, clock } = ctx
  const keys = [...new Set(emails.filter((e): e is string => !!e).map((e) => emailKey(e)))]
  const screened: Screened = { taken: new Set(), withheld: new Set(), retryAt: null }
  if (keys.length === 0) return screened
  const now = clock.now()
  const nowIso = now.toISOString()
  const rule = LIMITS.emailOracle
  const owners = await acrossStakes(() => emailOwners(db, keys))
  const ownStake = 'stakeId' in asker ? asker.stakeId : null
  const who = askerKey(asker)
  const outside = keys.filter((k) => owners.get(k) !== ownStake)
  const told = await liveKeys(
    db,
    TOLD,
    outside.map((k) => toldKey(who, k)),
    nowIso,
  )
  const budget = await peekHits(db, rule.bucket, who, nowIso)
  let spent = budget !== undefined && budget.hits >= rule.limit
  if (spent) screened.retryAt = budget!.window_end
  for (const key of outside) {
    const taken = owners.has(key)
    if (told.has(toldKey(who, key))) {
      if (taken) screened.taken.add(key)
    } else if (spent) {
      screened.withheld.add(key)
    } else if (taken) {
      const windowEnd = addSeconds(now, rule.windowSeconds).toISOString()
      const hit = await retrying(() => countHit(db, rule.bucket, who, nowIso, windowEnd))
      if (hit.hits > rule.limit) {
        screened.withheld.add(key)
      } else {
        await retrying(() => countHit(db, TOLD, toldKey(who, key), nowIso, hit.window_end))
        screened.taken.add(key)
      }
      // The last one told spends the budget: from here on nothing is told either way.
      if (hit.hits >= rule.limit) {
        spent = true
        screened.retryAt = hit.window_end
      }
    }
  }
  return screened
}

/**
 * For one email (user creation, signup): 429 when it is withheld; whether
 * another stake has it otherwise (the caller answers 409 duplicate_email).
 */
export async function takenElsewhere(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  asker: Asker,
  email: string,
): Promise<boolean> {
  const screened = await screenEmails(ctx, asker, [email])
  if (screened.withheld.size > 0) {
    const wait = screened.retryAt ? Date.parse(screened.retryAt) - ctx.clock.now().getTime() : 0
    throw tooManyAttempts(Math.ceil(wait / 1000))
  }
  return screened.taken.size > 0
}

/**
 * Imports (docs/api-reference.md §15): the report's emails that cannot be
 * given to a new person here — another stake's that may be told, and the
 * withheld — both answered alike as `email_unavailable`.
 */
export async function unavailableEmails(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  emails: (string | null | undefined)[],
): Promise<Set<string>> {
  const { taken, withheld } = await screenEmails(ctx, { stakeId: currentStakeId() }, emails)
  return new Set([...taken, ...withheld])
}
