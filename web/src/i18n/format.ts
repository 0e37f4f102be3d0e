import i18next from 'i18next'

/**
 * Dates, times and month names in the client's current language (docs/api-reference.md
 * §13), through `Intl`. Components that call `useTranslation` re-render on a
 * language change, so what they format follows at once.
 */
function currentLocale(): string {
  return i18next.resolvedLanguage ?? i18next.language ?? 'en'
}

const dateFormats = new Map<string, Intl.DateTimeFormat>()
const listFormats = new Map<string, Intl.ListFormat>()

/**
 * One `Intl.DateTimeFormat` per language and options, made once: making one
 * costs far more than formatting with it (on a phone's CPU, the board's cards
 * spent ~120 ms making formatters for 60 cards).
 */
export function dateFormat(options: Intl.DateTimeFormatOptions, locale = currentLocale()): Intl.DateTimeFormat {
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

/** "Nov 24, 2026, 3:05 PM" / "24 nov 2026, 15:05"; '—' when absent; the text itself when unreadable. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—'
  const d = toDate(iso)
  if (!d) return iso
  return dateFormat({ dateStyle: 'medium', timeStyle: 'short' }).format(d)
}

/** "Nov 24, 2026" / "24 nov 2026". */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—'
  const d = toDate(iso)
  if (!d) return iso
  return dateFormat({ dateStyle: 'medium' }).format(d)
}

/** A wall-clock time given in minutes after midnight: "9:30 AM" / "9:30". */
export function formatMinutes(min: number | null | undefined): string {
  if (min == null) return '—'
  const d = new Date(2000, 0, 1, Math.floor(min / 60), min % 60)
  return dateFormat({ hour: 'numeric', minute: '2-digit' }).format(d)
}

/** A month's name, `month` 1–12: "November" / "noviembre" ('long'), "Nov" / "nov" ('short'). */
export function formatMonth(month: number, style: 'long' | 'short' = 'long', year?: number): string {
  const d = new Date(Date.UTC(year ?? 2000, month - 1, 15))
  return dateFormat({ month: style, ...(year !== undefined ? { year: 'numeric' } : {}), timeZone: 'UTC' }).format(d)
}
