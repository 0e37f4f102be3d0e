import type { PdfItem } from './pdf-text.ts'
import type { SegRow } from './segments.ts'

/**
 * Column bands and rows of a PDF table (layout.ts, docs/imports.md): where
 * each word of a text item starts, which column band it falls in, and which
 * lines make one row.
 */

export interface Piece {
  text: string
  x: number
  right: number
}

export interface Line {
  n: number
  page: number
  y: number
  height: number
  items: PdfItem[]
}

export interface Column {
  label: string
  x: number
  right: number
}

export interface OpenTable {
  columns: Column[]
  key: string
  lines: Line[]
  organization: string | null
  count: { line: number; n: number } | null
}

/** Rough glyph widths (Helvetica-like), to place the words of one item. */
const glyph = (c: string) =>
  c === ' ' ? 0.28 : /[0-9]/.test(c) ? 0.56 : /[A-Z]/.test(c) ? 0.68 : /[ijlft.,']/.test(c) ? 0.28 : 0.52

/** The words of an item with where each starts, by the share of the item's width before it. */
export function words(item: { text: string; x: number; right: number }): Piece[] {
  const total = [...item.text].reduce((s, c) => s + glyph(c), 0) || 1
  const scale = (item.right - item.x) / total
  const out: Piece[] = []
  let at = 0
  for (const part of item.text.split(' ')) {
    const width = [...part].reduce((s, c) => s + glyph(c), 0)
    if (part) out.push({ text: part, x: item.x + at * scale, right: item.x + (at + width) * scale })
    at += width + glyph(' ')
  }
  return out
}

/** The table's lines as rows: lines closer than the row pitch are one row; each item in its column's band. */
export function rowsOf(table: OpenTable): SegRow[] {
  const starts = table.columns.map((c, i) => (i === 0 ? -Infinity : c.x - Math.max(3, 0.4 * 9)))
  const bandOf = (x: number) => {
    let index = 0
    for (let i = 0; i < starts.length; i++) if (x >= starts[i]!) index = i
    return index
  }
  const rows: SegRow[] = []
  const clusters: Line[][] = []
  const gaps: number[] = []
  for (let i = 1; i < table.lines.length; i++) {
    const [a, b] = [table.lines[i - 1]!, table.lines[i]!]
    if (a.page === b.page) gaps.push(a.y - b.y)
  }
  const sorted = [...gaps].sort((a, b) => a - b)
  const pitch = sorted.length ? sorted[Math.floor(sorted.length * 0.75)]! : Infinity
  for (const line of table.lines) {
    const last = clusters.at(-1)?.at(-1)
    const near = last && last.page === line.page && last.y - line.y < Math.min(1.25 * line.height, 0.8 * pitch)
    if (near) clusters.at(-1)!.push(line)
    else clusters.push([line])
  }
  for (const cluster of clusters) {
    const cells = table.columns.map(() => '')
    for (const line of cluster) {
      for (const item of line.items) {
        for (const piece of splitAtBands(item, starts)) {
          const i = bandOf(piece.x)
          cells[i] = cells[i] ? `${cells[i]} ${piece.text}` : piece.text
        }
      }
    }
    const baseline = cluster.reduce((best, l) => (l.items.length > best.items.length ? l : best), cluster[0]!)
    rows.push({ line: baseline.n, cells, organization: table.organization })
  }
  return rows
}

/** An item printed across a column's start ("12 Dec 1981 Relief Society"): split at the space nearest it. */
function splitAtBands(item: PdfItem, starts: number[]): Piece[] {
  const ws = words(item)
  const cuts = new Map<number, number>() // word index → the column start it was cut for
  for (const s of starts) {
    if (!(s > item.x + 2 && s < item.right - 2) || ws.length < 2) continue
    let best = 1
    for (let k = 1; k < ws.length; k++) if (Math.abs(ws[k]!.x - s) < Math.abs(ws[best]!.x - s)) best = k
    // Only a word that starts about where the column does: a long date merely reaching into the next band stays whole.
    if (Math.abs(ws[best]!.x - s) <= item.height) cuts.set(best, s)
  }
  if (cuts.size === 0) return [{ text: item.text, x: item.x, right: item.right }]
  const out: Piece[] = []
  let from = 0
  for (const cut of [...[...cuts.keys()].sort((a, b) => a - b), ws.length]) {
    const part = ws.slice(from, cut)
    // The part starts at the column it was cut for, whatever the width estimate says.
    const x = from === 0 ? item.x : cuts.get(from)! + 0.5
    out.push({ text: part.map((w) => w.text).join(' '), x, right: part.at(-1)!.right })
    from = cut
  }
  return out
}
