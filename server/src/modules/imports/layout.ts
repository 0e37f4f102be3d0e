import { isHeaderRow, labelKey } from './report.ts'
import { rowsOf, words, type Column, type Line, type OpenTable } from './bands.ts'
import type { PdfItem } from './pdf-text.ts'
import { chromeReason, countOf, organizationOf, type IgnoredLine, type Segments } from './segments.ts'

/**
 * An LCR report printed to PDF, read by its layout (docs/api-reference.md
 * §15 and docs/imports.md). Items on one baseline make a line. Every table
 * has its own header line (its labels may wrap onto a second line): the
 * labels' left edges give the column bands for the rows under it, until the
 * next header. A row is the band of its baseline: a cell that wraps is
 * printed centred on its row, its lines above and below the baseline, so
 * lines closer together than a row's pitch are one row. Headings between
 * tables are the rows' organization; page chrome is never data.
 */

/** Every known header label, so "Gender Age" printed as one item is two labels. */
const KNOWN = new Set([
  'name',
  'gender',
  'age',
  'birthdate',
  'phone',
  'phonenumber',
  'email',
  'emailaddress',
  'organization',
  'organizations',
  'calling',
  'callings',
  'callingname',
  'position',
  'sustained',
  'datesustained',
  'setapart',
  'currentunit',
  'unit',
  'preferredname',
  'fullname',
  'address',
])

/** A line's labels: known labels split apart, other words kept together within their item. */
function labelsOf(line: Line): Column[] {
  const out: Column[] = []
  for (const item of line.items) {
    const ws = words(item)
    let i = 0
    let unknown: Column | null = null
    while (i < ws.length) {
      let len = Math.min(3, ws.length - i)
      while (
        len > 0 &&
        !KNOWN.has(
          labelKey(
            ws
              .slice(i, i + len)
              .map((w) => w.text)
              .join(' '),
          ),
        )
      )
        len--
      if (len > 0) {
        const part = ws.slice(i, i + len)
        out.push({ label: part.map((w) => w.text).join(' '), x: part[0]!.x, right: part.at(-1)!.right })
        unknown = null
        i += len
      } else {
        const w = ws[i]!
        if (unknown) {
          unknown.label += ` ${w.text}`
          unknown.right = w.right
        } else {
          unknown = { label: w.text, x: w.x, right: w.right }
          out.push(unknown)
        }
        i += 1
      }
    }
  }
  return out.sort((a, b) => a.x - b.x)
}

/** A header printed over two lines: the second line's labels join the first's above them. */
function mergeWrapped(top: Column[], below: Column[]): Column[] {
  const merged = top.map((c) => ({ ...c }))
  for (const b of below) {
    const over = merged.find((c) => b.x < c.right + 2 && b.right > c.x - 2)
    if (over) {
      over.label += ` ${b.label}`
      over.right = Math.max(over.right, b.right)
      over.x = Math.min(over.x, b.x)
    } else merged.push({ ...b })
  }
  return merged.sort((a, b) => a.x - b.x)
}

function toLines(items: PdfItem[]): Line[] {
  const lines: Line[] = []
  const pages = [...new Set(items.map((i) => i.page))].sort((a, b) => a - b)
  for (const page of pages) {
    const onPage = items.filter((i) => i.page === page).sort((a, b) => b.y - a.y || a.x - b.x)
    let current: PdfItem[] = []
    const flush = () => {
      if (current.length === 0) return
      const height = Math.max(...current.map((i) => i.height))
      lines.push({ n: 0, page, y: current[0]!.y, height, items: current.sort((a, b) => a.x - b.x) })
      current = []
    }
    for (const item of onPage) {
      if (current[0] && Math.abs(current[0].y - item.y) > 1.5) flush()
      current.push(item)
    }
    flush()
  }
  lines.forEach((l, i) => (l.n = i + 1))
  return lines
}

const lineText = (line: Line) => line.items.map((i) => i.text).join(' ')
const HARD = new Set(['copyright', 'printed', 'page_number', 'count'])
const looseChrome = (text: string) =>
  chromeReason(text) !== null || /^\d+$/.test(text) || /^\d{1,2} [A-Za-z]{3,9} \d{4}$/.test(text)

/**
 * The line is page chrome: one of its items is a footer's or a count, or
 * every item is chrome (a bare date or number too, outside a table: inside
 * one, a lone date is a wrapped row's sustained date).
 */
function chromeOf(line: Line, inTable = false): string | null {
  const reasons = line.items.map((i) => chromeReason(i.text))
  const hard = reasons.find((r) => r !== null && HARD.has(r))
  if (hard) return hard
  if (reasons.every((r) => r !== null)) return reasons[0]!
  if (!inTable && line.items.every((i) => looseChrome(i.text))) return reasons.find((r) => r !== null) ?? 'page_text'
  return null
}

/** The header at `i` (one line, or two when its labels wrap): its columns and how many lines it takes. */
function headerAt(lines: Line[], i: number): { columns: Column[]; span: number } | null {
  const line = lines[i]!
  const one = labelsOf(line)
  const next = lines[i + 1]
  const known = (columns: Column[]) => columns.filter((c) => KNOWN.has(labelKey(c.label))).length
  if (next && next.page === line.page && line.y - next.y < 1.6 * line.height) {
    // "Birth" over "Date": the second line completes labels of the first (more of them are known).
    const two = mergeWrapped(one, labelsOf(next))
    if (isHeaderRow(two.map((c) => c.label)) && known(two) > known(one)) return { columns: two, span: 2 }
  }
  if (isHeaderRow(one.map((c) => c.label))) return { columns: one, span: 1 }
  return null
}

export function layoutSegments(items: PdfItem[]): Segments {
  const lines = toLines(items)
  const ignored: IgnoredLine[] = []
  const tables: OpenTable[] = []
  let current: OpenTable | null = null
  let pending: Line[] = []
  let heads: { text: string; height: number }[] = []
  const headers = new Map<number, { columns: Column[]; span: number }>()
  for (let i = 0; i < lines.length; i++) {
    const h = headerAt(lines, i)
    if (h) {
      headers.set(i, h)
      i += h.span - 1
    }
  }
  /** Whether the next line that is not chrome, from `i` on, is a header. */
  const headerFollows = (i: number) => {
    for (let j = i; j < lines.length; j++) {
      // A heading stands on its table's page: a cell's last lines at a page's foot are not one.
      if (lines[j]!.page !== lines[i - 1]!.page) return false
      if (headers.has(j)) return true
      const chrome = chromeOf(lines[j]!)
      // A count closes the table: the lines above it are its rows.
      if (chrome === 'count' || (chrome === null && lines[j]!.items.length > 1)) return false
    }
    return false
  }
  const addHeading = (line: Line) => {
    const top = Math.max(0, ...heads.map((h) => h.height))
    const text = lineText(line)
    heads = line.height >= top - 0.5 ? [{ text, height: line.height }] : [heads[0]!, { text, height: line.height }]
    ignored.push({ line: line.n, text, reason: 'heading' })
  }

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const header = headers.get(i)
    if (header) {
      const key = header.columns.map((c) => labelKey(c.label)).join('|')
      const span = lines.slice(i, i + header.span)
      i += header.span - 1
      if (current && current.key === key && pending.length === 0 && current.count === null) {
        for (const l of span) ignored.push({ line: l.n, text: lineText(l), reason: 'repeated_header' })
        continue
      }
      for (const l of pending) addHeading(l)
      pending = []
      current = {
        columns: header.columns,
        key,
        lines: [],
        organization: organizationOf(heads.map((h) => h.text)),
        count: null,
      }
      tables.push(current)
      continue
    }
    const chrome = chromeOf(line, current !== null && current.count === null)
    if (chrome === 'count' && current && current.count === null) {
      const text = lineText(line)
      current.count = { line: line.n, n: countOf(line.items.find((it) => countOf(it.text) !== null)!.text)! }
      ignored.push({ line: line.n, text, reason: 'count' })
      continue
    }
    if (chrome) {
      ignored.push({ line: line.n, text: lineText(line), reason: chrome })
      continue
    }
    // Soft chrome beside a heading ("Nursery      Room: 24-26").
    const soft = line.items.filter((it) => chromeReason(it.text) !== null)
    for (const it of soft) ignored.push({ line: line.n, text: it.text, reason: chromeReason(it.text)! })
    const rest: Line = { ...line, items: line.items.filter((it) => !soft.includes(it)) }
    const open = current && current.count === null ? current : null
    const cellHeight = open?.lines[0]?.height
    const single = rest.items.length === 1
    if (single && (!open || headerFollows(i + 1) || (cellHeight !== undefined && rest.height > cellHeight + 1))) {
      if (open) current!.count = current!.count ?? { line: 0, n: -1 }
      pending.push(rest)
      continue
    }
    if (!open) {
      for (const l of pending) ignored.push({ line: l.n, text: lineText(l), reason: 'page_text' })
      pending = []
      ignored.push({ line: line.n, text: lineText(line), reason: 'page_text' })
      continue
    }
    open.lines.push(rest)
  }
  for (const l of pending) ignored.push({ line: l.n, text: lineText(l), reason: 'page_text' })
  ignored.sort((a, b) => a.line - b.line)
  return {
    tables: tables.map((t) => ({
      header: t.columns.map((c) => c.label),
      rows: rowsOf(t),
      count: t.count && t.count.n >= 0 ? t.count : null,
    })),
    ignored,
  }
}
