import { chromeReason, clean, countOf } from './segments.ts'

/**
 * Names and dates as LCR prints them (docs/api-reference.md §15): "Last,
 * First Middle Suffix" (or "First Last"), "29 Apr 1971" dates, and the cells
 * that stand in a name column without being a name.
 */

const SUFFIXES = /^(jr|sr|ii|iii|iv)\.?$/i

/**
 * "Last, First Middle Suffix" or "First Last" (the last word is the last
 * name). A suffix (Jr., Sr., II–IV) is kept after the last name: "Bingham,
 * Ryan Kirk Jr." is Ryan Kirk / Bingham Jr.
 */
export function splitName(raw: string): { fname: string; lname: string } | null {
  const name = clean(raw)
  const comma = name.indexOf(',')
  let fname: string
  let lname: string
  if (comma >= 0) {
    lname = name.slice(0, comma).trim()
    const words = name
      .slice(comma + 1)
      .replace(/,/g, ' ')
      .trim()
      .split(' ')
      .filter(Boolean)
    const suffix = words.length > 1 && SUFFIXES.test(words.at(-1)!) ? words.pop()! : null
    fname = words.join(' ')
    if (suffix) lname = `${lname} ${suffix}`
  } else {
    const words = name.split(' ')
    const suffix = words.length > 2 && SUFFIXES.test(words.at(-1)!) ? words.pop()! : null
    if (words.length < 2) return null
    lname = words.pop()! + (suffix ? ` ${suffix}` : '')
    fname = words.join(' ')
  }
  if (!fname || !lname || fname.length > 100 || lname.length > 100) return null
  return { fname, lname }
}

/** The last name without its suffix: "Bingham Jr." and "Bingham" are one family name. */
export const baseLastName = (lname: string): string => {
  const words = clean(lname).split(' ')
  return words.length > 1 && SUFFIXES.test(words.at(-1)!) ? words.slice(0, -1).join(' ') : clean(lname)
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/** "29 Apr 1971" (LCR's) or YYYY-MM-DD → YYYY-MM-DD; null for anything else. */
export function parseDate(raw: string): string | null {
  const text = clean(raw)
  let y: number, m: number, d: number
  const lcr = /^(\d{1,2}) ([A-Za-z]{3,9})\.? (\d{4})$/.exec(text)
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (lcr) {
    d = Number(lcr[1])
    m = MONTHS.indexOf(lcr[2]!.slice(0, 3).toLowerCase()) + 1
    y = Number(lcr[3])
  } else if (iso) {
    y = Number(iso[1])
    m = Number(iso[2])
    d = Number(iso[3])
  } else return null
  if (m < 1 || y < 1800) return null
  const date = new Date(Date.UTC(y, m - 1, d))
  if (date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null
  return date.toISOString().slice(0, 10)
}

/** LCR prints this in the name column of a calling nobody holds. */
export const isVacant = (cell: string): boolean => /^calling vacant$|^vacant$/i.test(clean(cell))

/**
 * Why a name cell is not a person's name, or null: a date, a phone number, a
 * count or page text stood where a name belongs (a misread report); the row
 * is a problem, never a new person.
 */
export function notANameReason(cell: string): string | null {
  const text = clean(cell)
  if (
    parseDate(text) ||
    /^\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}$/.test(text) ||
    /^[A-Za-z]{3,9}\.? \d{1,2},? \d{4}$/.test(text)
  )
    return 'a date'
  if (/^[+(]?\d[\d\s().-]{5,}$/.test(text) && text.replace(/\D/g, '').length >= 7) return 'a phone number'
  if (countOf(text) !== null || /^\d+$/.test(text)) return 'a count'
  if (chromeReason(text) !== null) return 'page text'
  return null
}

/** Set Apart as kept with the seat: its date, "yes", or null (not set apart, or not said). */
export function parseSetApart(raw: string): string | null {
  const text = clean(raw).replace(/\uFE0F/g, '')
  if (text === '') return null
  const date = parseDate(text)
  if (date) return date
  if (/^(✔|✓|☑|✅|x|y|yes|sí|si|true)$/i.test(text)) return 'yes'
  return null
}
