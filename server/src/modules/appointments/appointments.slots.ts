/**
 * Free times of an interviewer (docs/api-reference.md §18) as pure functions:
 * weekly windows and dated exceptions are wall-clock minutes in the stake's
 * time zone, turned into instants day by day, so a window stays at 18:00
 * local across a daylight-saving change. No database, no clock.
 */
import { zonedInstant } from '../speaking/feed.dates.ts'

export interface WindowLike {
  weekday: number | null
  date: string | null
  start_minute: number
  end_minute: number
  open: boolean
}

export interface Slot {
  start: Date
  end: Date
}

/** Appointments hold quarter hours; the database gives each quarter of an interviewer to one appointment. */
const QUARTER_MS = 15 * 60 * 1000

/** The quarter hours `[start, end)` covers, as ISO strings (the keys of appointment_blocks). */
export function quarters(start: Date, end: Date): string[] {
  const out: string[] = []
  for (let t = start.getTime(); t < end.getTime(); t += QUARTER_MS) out.push(new Date(t).toISOString())
  return out
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>()

/** The local date of `instant` in `timeZone`, YYYY-MM-DD. */
export function localDate(instant: Date, timeZone: string): string {
  let f = dayFormatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    dayFormatters.set(timeZone, f)
  }
  return f.format(instant)
}

/** `date` plus `days` days (calendar arithmetic, no zone). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

export const weekdayOf = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay()

/** The instant the stake's clocks show `minute` minutes into the local `date`. */
export function localInstant(date: string, minute: number, timeZone: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number]
  return zonedInstant({ year, month, day }, minute, timeZone)
}

/**
 * Every slot of `duration` minutes the windows offer between `from` and
 * `until`, stepping through each open window from its start; a slot touching
 * a closed exception or a taken quarter (`taken`) is left out. Sorted, one
 * per start.
 */
export function offeredSlots(options: {
  windows: readonly WindowLike[]
  timeZone: string
  from: Date
  until: Date
  duration: number
  taken?: ReadonlySet<string>
}): Slot[] {
  const { windows, timeZone, from, until, duration, taken } = options
  const slots = new Map<number, Slot>()
  const last = localDate(until, timeZone)
  for (let date = localDate(from, timeZone); date <= last; date = addDays(date, 1)) {
    const weekday = weekdayOf(date)
    const open = windows.filter((w) => (w.date === null ? w.weekday === weekday : w.date === date && w.open))
    const closed = windows.filter((w) => w.date === date && !w.open)
    for (const w of open) {
      for (let m = w.start_minute; m + duration <= w.end_minute; m += duration) {
        if (closed.some((c) => m < c.end_minute && m + duration > c.start_minute)) continue
        const start = localInstant(date, m, timeZone)
        const end = new Date(start.getTime() + duration * 60_000)
        if (start < from || start > until) continue
        if (taken && quarters(start, end).some((q) => taken.has(q))) continue
        slots.set(start.getTime(), { start, end })
      }
    }
  }
  return [...slots.values()].sort((a, b) => a.start.getTime() - b.start.getTime())
}
