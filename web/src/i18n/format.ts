import i18next from 'i18next'

/**
 * Dates, times and month names in the client's current language (docs/api-reference.md
 * §13) and the stake's time zone, through `Intl`: the one place the client
 * turns an instant into words. Components that call `useTranslation` re-render
 * on a language change, so what they format follows at once.
 */
function currentLocale(): string {
  return i18next.resolvedLanguage ?? i18next.language ?? 'en'
}

/**
 * The stake's time zone, as the signed-in stake (api/stake.ts) or a booking
 * page last reported it; undefined until then (the browser's own zone).
 * Every instant is shown in it: a browser set to another zone still sees the
 * times the stake keeps.
 */
let stakeZone: string | undefined

export function setStakeZone(zone: string | undefined): void {
  stakeZone = zone
}

const dateFormats = new Map<string, Intl.DateTimeFormat>()
const listFormats = new Map<string, Intl.ListFormat>()

/**
 * One `Intl.DateTimeFormat` per language and options, made once: making one
 * costs far more than formatting with it (on a phone's CPU, the board's cards
 * spent ~120 ms making formatters for 60 cards).
 */
export function dateFormat(options: Intl.DateTimeFormatOptions, locale = currentLocale()): Intl.DateTimeFormat {
  if (options.timeZone === undefined && stakeZone !== undefined) options = { ...options, timeZone: stakeZone }
  const key = `${locale}|${JSON.stringify(options)}`
  let format = dateFormats.get(key)
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(locale, options)))
  return format
}

/** "Ann Lee, Bo Park and Cy Diaz" / "Ann Lee, Bo Park y Cy Diaz": one `Intl.ListFormat` per language. */
export function listFormat(locale = currentLocale()): Intl.ListFormat {
  let format = listFormats.get(locale)
  if (!format) listFormats.set(locale, (format = new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' })))
  return format
}

function toDate(value: string | Date): Date | null {
  const d = value instanceof Date ? value : new Date(value)
  return Number.isNaN(d.getTime()) ? null : d
}

/** An instant in words; '—' when absent; the text itself when unreadable. `zone`: the stake's unless given. */
function formatInstant(iso: string | null | undefined, options: Intl.DateTimeFormatOptions, zone?: string): string {
  if (!iso) return '—'
  // A bare date is a day of the calendar, the same day in every zone.
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) return formatInstant(`${iso}T12:00:00Z`, options, 'UTC')
  const d = toDate(iso)
  if (!d) return iso
  return dateFormat(zone ? { ...options, timeZone: zone } : options).format(d)
}

/** "Nov 24, 2026, 3:05 PM" / "24 nov 2026, 15:05". */
export function formatDateTime(iso: string | null | undefined, zone?: string): string {
  return formatInstant(iso, { dateStyle: 'medium', timeStyle: 'short' }, zone)
}

/** "Nov 24, 2026" / "24 nov 2026". */
export function formatDate(iso: string | null | undefined, zone?: string): string {
  return formatInstant(iso, { dateStyle: 'medium' }, zone)
}

/** "3:05 PM" / "15:05". */
export function formatTime(iso: string | null | undefined, zone?: string): string {
  return formatInstant(iso, { hour: 'numeric', minute: '2-digit' }, zone)
}

/** "Tuesday, November 24" / "martes, 24 de noviembre": the day of an instant. */
export function formatDay(iso: string | null | undefined, zone?: string): string {
  return formatInstant(iso, { weekday: 'long', day: 'numeric', month: 'long' }, zone)
}

/**
 * A calendar date (YYYY-MM-DD: a day of the stake's calendar, not an instant):
 * "Sunday, November 29" ('day'), "Sunday, November 29, 2026" ('full').
 */
export function formatLocalDate(date: string, style: 'day' | 'full' = 'day'): string {
  const d = toDate(`${date}T12:00:00Z`)
  if (!d) return date
  const options: Intl.DateTimeFormatOptions = { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }
  return dateFormat(style === 'full' ? { ...options, year: 'numeric' } : options).format(d)
}

/**
 * A time zone by name: "Mountain Time (Denver)" / "hora de las Montañas
 * Rocosas (Denver)", "Coordinated Universal Time (UTC)"; a zone with no name
 * but an offset ("GMT+00:00") goes by its city alone.
 */
export function zoneName(zone: string): string {
  const city = zone.split('/').pop()?.replace(/_/g, ' ') ?? zone
  const named = (style: 'longGeneric' | 'long') => {
    const part = dateFormat({ timeZone: zone, timeZoneName: style })
      .formatToParts(new Date())
      .find((p) => p.type === 'timeZoneName')?.value
    return part && !/^(GMT|UTC)[+-−]/.test(part) && part !== city ? part : null
  }
  try {
    const name = named('longGeneric') ?? named('long')
    return name ? `${name} (${city})` : city
  } catch {
    return zone
  }
}

/** Today's date (YYYY-MM-DD) in `zone` (the stake's unless given). */
export function todayIn(zone = stakeZone, now = new Date()): string {
  return dateFormat({ timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }, 'en-CA').format(now)
}

/** The coming Sunday (today when it is Sunday) in `zone`, YYYY-MM-DD. */
export function comingSunday(zone = stakeZone, now = new Date()): string {
  const day = new Date(`${todayIn(zone, now)}T12:00:00Z`)
  day.setUTCDate(day.getUTCDate() + ((7 - day.getUTCDay()) % 7))
  return day.toISOString().slice(0, 10)
}

/** What the clocks of `zone` (the stake's unless given) read at `instant`, written as if in UTC (milliseconds). */
function wallClock(instant: number, zone?: string): number {
  const parts: Record<string, number> = {}
  const clock = dateFormat(
    {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    },
    'en-US',
  )
  for (const p of clock.formatToParts(new Date(instant))) if (p.type !== 'literal') parts[p.type] = Number(p.value)
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!)
}

/**
 * An instant as a `datetime-local` field shows it ("2026-11-29T12:30"): the
 * wall clock of `zone` (the stake's unless given), never the browser's.
 * Empty when absent or unreadable.
 */
export function toWallTime(iso: string | null | undefined, zone?: string): string {
  const d = iso ? toDate(iso) : null
  return d ? new Date(wallClock(d.getTime(), zone)).toISOString().slice(0, 16) : ''
}

/**
 * The instant (ISO) at which the clocks of `zone` (the stake's unless given)
 * show a `datetime-local` value; undefined when empty or unreadable. A time
 * that occurs twice (clocks set back) is its first occurrence; a time that
 * never occurs (clocks set forward) moves on by the gap, so 02:30 becomes
 * 03:30 — as the speaking feed on the server reads wall times.
 */
export function fromWallTime(local: string, zone?: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local)
  if (!m) return undefined
  const [year, month, day, hour, minute, second] = m.slice(1).map((n) => Number(n ?? 0))
  const wall = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!)
  if (Number.isNaN(wall)) return undefined
  // The offsets a day either side cover any change of the clocks in between.
  const DAY = 24 * 3600 * 1000
  const before = wallClock(wall - DAY, zone) - (wall - DAY)
  const after = wallClock(wall + DAY, zone) - (wall + DAY)
  const fits = [wall - before, wall - after].filter((t) => wallClock(t, zone) === wall)
  return new Date(fits.length > 0 ? Math.min(...fits) : wall - before).toISOString()
}

/** A wall-clock time given in minutes after midnight: "9:30 AM" / "9:30". */
export function formatMinutes(min: number | null | undefined): string {
  if (min == null) return '—'
  const d = new Date(Date.UTC(2000, 0, 1, Math.floor(min / 60), min % 60))
  return dateFormat({ hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(d)
}

/** A month's name, `month` 1–12: "November" / "noviembre" ('long'), "Nov" / "nov" ('short'). */
export function formatMonth(month: number, style: 'long' | 'short' = 'long', year?: number): string {
  const d = new Date(Date.UTC(year ?? 2000, month - 1, 15))
  return dateFormat({ month: style, ...(year !== undefined ? { year: 'numeric' } : {}), timeZone: 'UTC' }).format(d)
}
