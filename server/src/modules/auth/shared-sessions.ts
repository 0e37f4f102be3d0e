import { SHARED_SESSION_IDLE_SECONDS } from '@stake/contract'
import { addSeconds } from '../../clock.ts'

/**
 * Sign-ins on a shared computer (docs/api-reference.md §13). Such a session ends after
 * SHARED_SESSION_IDLE_SECONDS without activity; its activity is its requests
 * and refreshes, kept in `sessions.last_used_at`. Other sessions are not
 * touched by any of this (7 days absolute, docs/api-reference.md §3).
 */

/** A shared session records a request as activity at most this often (one write a minute, not one per request). */
export const ACTIVITY_WRITE_SECONDS = 60

/** A shared session last used at or before this instant has ended. */
export const idleCutoff = (now: Date): string => addSeconds(now, -SHARED_SESSION_IDLE_SECONDS).toISOString()

/** Whether a shared session last used at `lastUsedAt` has ended by `now`. */
export const isIdle = (shared: boolean, lastUsedAt: string, now: Date): boolean =>
  shared && lastUsedAt <= idleCutoff(now)
