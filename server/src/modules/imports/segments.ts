import { parseDate } from './names.ts'
import { isHeaderRow, labelKey } from './report.ts'

/**
 * A report as its tables and its page text (docs/api-reference.md §15). An
 * LCR page holds more than one table: each with its own header row, the
 * organization headings above it, and page text around them (titles, unit
 * lines, "Count: N", footers). The text reader (tables.ts) and the PDF
 * reader (layout.ts) both produce this; report.ts reads the rows out of it.
 */

export interface IgnoredLine {
  /** The report's line (a PDF's lines are counted top to bottom, page after page). */
  line: number
  text: string
  reason: string
}

export interface SegRow {
  line: number
  cells: string[]
  organization: string | null
}

interface SegTable {
  header: string[]
  rows: SegRow[]
  /** The table's own "Count: N" line, compared with the rows read. */
  count: { line: number; n: number } | null
}

export interface Segments {
  tables: SegTable[]
  ignored: IgnoredLine[]
}

export const clean = (cell: string | undefined): string =>
  (cell ?? '').replaceAll('\u0000', '').replace(/\s+/g, ' ').trim()

const TITLES = new Set(
  [
    'Leader and Clerk Resources',
    'Menu',
    'Print',
    'Organizations',
    'All Organizations',
    'Members with Callings',
    'Organizations and Callings',
    'Callings by Organization',
    'Member List',
    'Member List for Callings',
    'Custom Reports',
    'Reports',
  ].map(labelKey),
)

const COUNT = /^(count|total)\s*:?\s*(\d+)$/i

/**
 * Why a line of text is page text and never data, or null. Unit lines carry
 * the unit's number in parentheses; the rest are LCR's fixed page furniture.
 */
export function chromeReason(text: string): string | null {
  const t = clean(text)
  if (t === '') return null
  if (COUNT.test(t)) return 'count'
  if (/\(\d{3,}\)$/.test(t)) return 'unit'
  if (/^printed\b/i.test(t) || /\bprinted (on )?\d{1,2} [a-z]{3,9} \d{4}$/i.test(t)) return 'printed'
  if (/^page\s+\d+(\s+(of|de)\s+\d+)?$/i.test(t) || /^\d+\s*(\/|of)\s*\d+$/i.test(t)) return 'page_number'
  if (/©|\(c\) \d{4}|intellectual reserve|for church use only|privacy notice|terms of use/i.test(t)) return 'copyright'
  if (/^room\s*:/i.test(t)) return 'room'
  if (/^add another\b/i.test(t)) return 'add_another'
  if (/^\*\s*(custom calling|indicates)/i.test(t)) return 'legend'
  if (TITLES.has(labelKey(t))) return 'title'
  return null
}

export const countOf = (text: string): number | null => {
  const m = COUNT.exec(clean(text))
  return m ? Number(m[2]) : null
}

/** The headings above a table: kept as its rows' organization ("Elders Quorum / Elders Quorum Presidency"). */
export const organizationOf = (headings: string[]): string | null =>
  headings.length === 0 ? null : headings.join(' / ').slice(0, 200)

/**
 * Records of delimited text (a CSV, a paste) as tables and page text. A
 * record with one cell is page text, a heading (when a header row follows),
 * a "Count: N", or — in "Callings by Organization" copied from a browser —
 * the sustained date of the row above, printed on the line after it.
 */
export function segmentRecords(records: readonly { line: number; cells: readonly string[] }[]): Segments {
  const tables: SegTable[] = []
  const ignored: IgnoredLine[] = []
  let current: (SegTable & { key: string; sustained: number; org: string | null }) | null = null
  let closed = false
  let pending: { line: number; text: string }[] = []
  const flushPending = (reason: string) => {
    for (const p of pending) ignored.push({ line: p.line, text: p.text, reason })
    pending = []
  }

  for (const record of records) {
    const cells = record.cells.map(clean)
    const filled = cells.filter((c) => c !== '')
    if (filled.length === 0) continue
    if (isHeaderRow(cells)) {
      const key = cells.map(labelKey).join('|')
      if (current && !closed && pending.length === 0 && key === current.key) {
        ignored.push({ line: record.line, text: filled.join(' '), reason: 'repeated_header' })
        continue
      }
      // Before the first table the page's menu and title come first: only the line right above is a heading.
      const headings = tables.length === 0 ? pending.slice(-1) : pending
      pending = tables.length === 0 ? pending.slice(0, -1) : []
      flushPending('page_text')
      for (const h of headings) ignored.push({ line: h.line, text: h.text, reason: 'heading' })
      const sustained = cells.findIndex((c) => ['sustained', 'datesustained'].includes(labelKey(c)))
      current = {
        header: cells,
        rows: [],
        count: null,
        key,
        sustained,
        org: organizationOf(headings.map((h) => h.text)),
      }
      tables.push(current)
      closed = false
      continue
    }
    if (filled.length === 1 && cells.length === 1) {
      const text = filled[0]!
      const n = countOf(text)
      if (n !== null && current && !closed) {
        current.count = { line: record.line, n }
        closed = true
        flushPending('page_text')
        ignored.push({ line: record.line, text, reason: 'count' })
        continue
      }
      const last = current && !closed ? current.rows.at(-1) : undefined
      if (
        last &&
        current!.sustained >= 0 &&
        !last.cells[current!.sustained] &&
        parseDate(text) &&
        pending.length === 0
      ) {
        // The date line under its row: that row's sustained date.
        last.cells[current!.sustained] = text
        continue
      }
      const reason = chromeReason(text)
      if (reason) ignored.push({ line: record.line, text, reason })
      else pending.push({ line: record.line, text })
      continue
    }
    if (!current) {
      ignored.push({ line: record.line, text: filled.join(' '), reason: 'page_text' })
      continue
    }
    flushPending('page_text')
    closed = false
    current.rows.push({ line: record.line, cells, organization: current.org })
  }
  flushPending('page_text')
  ignored.sort((a, b) => a.line - b.line)
  return { tables: tables.map(({ header, rows, count }) => ({ header, rows, count })), ignored }
}
