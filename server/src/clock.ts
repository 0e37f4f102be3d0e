/**
 * The one clock of the app (AppContext.clock): injected so expiry and grace
 * windows are testable without sleeping.
 */
export interface Clock {
  now(): Date
  /** Now as the database stores time: ISO-8601 UTC text. */
  iso(): string
}

export const systemClock: Clock = {
  now: () => new Date(),
  iso: () => new Date().toISOString(),
}

export const addSeconds = (date: Date, seconds: number): Date => new Date(date.getTime() + seconds * 1000)
