/**
 * When deliveries (mail and webhooks) are tried (docs/api-reference.md §11): at about 0 s,
 * 30 s, 2 min, 10 min, 1 h and 6 h after the event, then marked failed.
 * Offsets count from the event, so a slow attempt does not push the next one.
 */
const ATTEMPT_OFFSETS_SECONDS = [0, 30, 120, 600, 3600, 21600] as const

export const MAX_ATTEMPTS = ATTEMPT_OFFSETS_SECONDS.length

/**
 * The time of the next try after `attemptsMade` failed attempts of a delivery
 * created at `createdAt`, or null when none is left (the delivery has failed).
 */
export function nextAttemptAt(createdAt: Date, attemptsMade: number): Date | null {
  const offset = ATTEMPT_OFFSETS_SECONDS[attemptsMade]
  return offset === undefined ? null : new Date(createdAt.getTime() + offset * 1000)
}
