import { sql } from 'kysely'
import type { Executor } from '../../db/types.ts'

export interface Hit {
  /** The count after this one, this one included. */
  hits: number
  window_end: string
}

/**
 * Counts one hit of (bucket, key) in ONE statement, as S4's sign-in throttle
 * counts an attempt (auth/throttle.repository.ts): an upsert whose RETURNING
 * gives the count after this hit. The database applies concurrent upserts of
 * one row one after another, so of N parallel requests exactly the first
 * `limit` see a count within the limit, on every instance over one database.
 * A window that has ended starts again at 1. Refused hits are counted too
 * (the count only says how far over the limit a flood is; it cannot grow
 * past the window).
 */
export async function countHit(
  db: Executor,
  bucket: string,
  key: string,
  now: string,
  windowEnd: string,
): Promise<Hit> {
  const r = (column: string) => sql.ref(`rate_limits.${column}`)
  const ended = sql`${r('window_end')} <= ${now}`
  const result = await sql<{ hits: number | string; window_end: string }>`
    insert into rate_limits (bucket, key, hits, window_end)
    values (${bucket}, ${key}, 1, ${windowEnd})
    on conflict (bucket, key) do update set
      hits = case when ${ended} then 1 else ${r('hits')} + 1 end,
      window_end = case when ${ended} then ${windowEnd} else ${r('window_end')} end
    returning hits, window_end`.execute(db)
  const row = result.rows[0]!
  return { hits: Number(row.hits), window_end: row.window_end }
}

/** Ends the window of (bucket, key) that ends at `windowEnd` (a lease given back); a later window is left alone. */
export async function endWindow(db: Executor, bucket: string, key: string, windowEnd: string): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where('bucket', '=', bucket)
    .where('key', '=', key)
    .where('window_end', '=', windowEnd)
    .execute()
}

/** The current window of (bucket, key), without counting; undefined when its window ended or it has none. */
export async function peekHits(db: Executor, bucket: string, key: string, now: string): Promise<Hit | undefined> {
  const row = await db
    .selectFrom('rate_limits')
    .select(['hits', 'window_end'])
    .where('bucket', '=', bucket)
    .where('key', '=', key)
    .where('window_end', '>', now)
    .executeTakeFirst()
  return row ? { hits: Number(row.hits), window_end: row.window_end } : undefined
}

/** Of `keys`, those with a live row in `bucket` (a window not yet ended). */
export async function liveKeys(db: Executor, bucket: string, keys: string[], now: string): Promise<Set<string>> {
  const live = new Set<string>()
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await db
      .selectFrom('rate_limits')
      .select('key')
      .where('bucket', '=', bucket)
      .where('key', 'in', keys.slice(i, i + 500))
      .where('window_end', '>', now)
      .execute()
    for (const row of rows) live.add(row.key)
  }
  return live
}

/** Housekeeping: windows that ended decide nothing (the next hit starts a new one). One range of the window_end index. */
export async function purgeEndedLimits(db: Executor, now: string): Promise<number> {
  const result = await db.deleteFrom('rate_limits').where('window_end', '<=', now).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/**
 * Which stake's user has each of these email keys (emails are unique across
 * the deployment). Run across stakes: the caller learns only what
 * email-oracle.ts lets it tell.
 */
export async function emailOwners(db: Executor, keys: string[]): Promise<Map<string, number>> {
  const owners = new Map<string, number>()
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await db
      .selectFrom('users')
      .select(['email_key', 'stake_id'])
      .where('email_key', 'in', keys.slice(i, i + 500))
      .execute()
    for (const row of rows) if (row.email_key !== null) owners.set(row.email_key, row.stake_id)
  }
  return owners
}
