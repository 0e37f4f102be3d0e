/**
 * Dates of the speaking calendar feed (docs/api-reference.md §13) as pure functions: which
 * Sunday a ward hears its speaker, and the instant a wall-clock time in the
 * stake's time zone stands for. No database, no clock.
 */

export interface YearMonth {
  year: number
  month: number
}

/** The day of the month of the n-th Sunday (1–5); the last Sunday when the month has no n-th. */
export function speakingDay(year: number, month: number, n: number): number {
  const firstWeekday = new Date(Date.UTC(year, month - 1, 1)).getUTCDay()
  const firstSunday = 1 + ((7 - firstWeekday) % 7)
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate()
  let day = firstSunday + 7 * (Math.min(Math.max(n, 1), 5) - 1)
  while (day > daysInMonth) day -= 7
  return day
}

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formatters.set(timeZone, f)
  }
  return f
}

/** The wall clock of `instant` in `timeZone`, as if it were UTC (milliseconds). */
function wallClock(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {}
  for (const p of formatter(timeZone).formatToParts(new Date(instant))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value)
  }
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!)
}

const offsetAt = (instant: number, timeZone: string) => wallClock(instant, timeZone) - instant

/**
 * The instant at which the clocks of `timeZone` show the given date and time.
 * Like Temporal's "compatible" choice: a time that occurs twice (clocks set
 * back) is its first occurrence; a time that never occurs (clocks set
 * forward) is moved on by the gap, so 02:30 becomes 03:30.
 */
export function zonedInstant(date: YearMonth & { day: number }, minutes: number, timeZone: string): Date {
  const wall = Date.UTC(date.year, date.month - 1, date.day, 0, minutes)
  const day = 24 * 3600 * 1000
  const before = offsetAt(wall - day, timeZone)
  const after = offsetAt(wall + day, timeZone)
  const fits = [before, after].map((offset) => wall - offset).filter((t) => wallClock(t, timeZone) === wall)
  return new Date(fits.length > 0 ? Math.min(...fits) : wall - before)
}

/** The month `now` falls in, in `timeZone`, and the 11 after it (docs/api-reference.md §13). */
export function feedMonths(now: Date, timeZone: string): YearMonth[] {
  const today = new Date(wallClock(now.getTime(), timeZone))
  const first = 12 * today.getUTCFullYear() + today.getUTCMonth()
  return Array.from({ length: 12 }, (_, i) => ({ year: Math.floor((first + i) / 12), month: ((first + i) % 12) + 1 }))
}
