/** Time is injected so expiry and grace windows are testable without sleeping. */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

export const iso = (date: Date): string => date.toISOString()
export const addSeconds = (date: Date, seconds: number): Date => new Date(date.getTime() + seconds * 1000)
