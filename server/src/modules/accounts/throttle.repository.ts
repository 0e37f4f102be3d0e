import { sql } from 'kysely'
import type { Executor } from '../../db/types.ts'

/**
 * Counts one password-reset request of a client address in ONE statement
 * (concurrent requests are counted one after another) and returns the count
 * in the current window and when that window started. A window older than
 * `windowCutoff` starts again at 1.
 */
export async function countResetRequest(
  db: Executor,
  key: string,
  now: string,
  windowCutoff: string,
): Promise<{ requests: number; window_start: string }> {
  const r = (column: string) => sql.ref(`password_reset_throttle.${column}`)
  const fresh = sql`${r('window_start')} < ${windowCutoff}`
  const result = await sql<{ requests: number | string; window_start: string }>`
    insert into password_reset_throttle (key, requests, window_start)
    values (${key}, 1, ${now})
    on conflict (key) do update set
      requests = case when ${fresh} then 1 else ${r('requests')} + 1 end,
      window_start = case when ${fresh} then ${now} else ${r('window_start')} end
    returning requests, window_start`.execute(db)
  const row = result.rows[0]!
  return { requests: Number(row.requests), window_start: row.window_start }
}

/** Windows that ended decide nothing: removed as requests come (a handful of rows per hour). */
export async function purgeEndedWindows(db: Executor, windowCutoff: string): Promise<void> {
  await db.deleteFrom('password_reset_throttle').where('window_start', '<', windowCutoff).execute()
}
