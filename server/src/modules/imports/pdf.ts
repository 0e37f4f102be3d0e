import { invalid } from '../../errors.ts'
import { isHeaderRow } from './report.ts'

/**
 * An LCR report printed to PDF, as a table (docs/api-reference.md §15). The
 * PDF's text items carry positions, not cells: items on one baseline make a
 * line; the report's column header line gives each column its x-range (from
 * its label's left edge to the next label's); every later line's items fall
 * into the column whose range holds their left edge. Lines before the first
 * header (the report's title, the ward, the date) are dropped, and so are the
 * header repeated on every page and the page footers.
 *
 * A cell whose text wraps (a long calling or organization in a narrow column)
 * puts its rest on the next line. LCR's reports are HTML tables printed by a
 * browser: cells have padding, so the lines inside one cell sit closer
 * together than one row's first line to the next row's. The rule: a body line
 * continues the row above when (1) a row above it exists on the same page
 * (the first body line of a page, under its header, always starts a row),
 * (2) its first column is empty, and (3) its baseline is less than 0.8 × the
 * row pitch below the previous line's. The row pitch is the median distance
 * above the lines that certainly start a row (first column filled), over the
 * whole report: one print has one layout, and a last page of a row or two
 * has too few lines to tell. Its cells are appended to the row's with a
 * space. A print without padding (every line the same distance apart) joins
 * nothing; nor does a wrapped first column (its line is not empty there).
 */

interface Item {
  text: string
  x: number
  y: number
  right: number
  height: number
}

/** One baseline of one page, its items left to right. */
interface Line {
  page: number
  /** The baseline, in the page's units (up is larger). */
  y: number
  items: Item[]
}

/** pdfjs-dist's Node build, loaded once on first use (it is large). */
let pdfjs: Promise<typeof import('pdfjs-dist/legacy/build/pdf.mjs')> | null = null
function loadPdfjs() {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs').then((m) => {
    m.GlobalWorkerOptions.workerSrc ||= ''
    return m
  })
  return pdfjs
}

const FOOTER = /^(page\s+\d+(\s+(of|de)\s+\d+)?|\d+\s*(\/|of)\s*\d+|count:?\s*\d+|total:?\s*\d+)$/i

async function readLines(data: Uint8Array): Promise<Line[]> {
  const { getDocument, VerbosityLevel } = await loadPdfjs()
  const task = getDocument({
    data,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: VerbosityLevel.ERRORS,
  })
  const lines: Line[] = []
  try {
    const doc = await task.promise
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p)
      const content = await page.getTextContent()
      const items: Item[] = []
      for (const raw of content.items) {
        if (!('str' in raw)) continue
        const text = raw.str.replaceAll('\u0000', '').trim()
        if (text === '') continue
        const [, , , d, x, y] = raw.transform as number[]
        const height = Math.abs(raw.height || d || 10)
        items.push({ text, x: x!, y: y!, right: x! + raw.width, height })
      }
      // Top of the page first; one line per baseline (within half a line's height).
      items.sort((a, b) => b.y - a.y || a.x - b.x)
      let current: Item[] = []
      const flush = () => {
        if (current.length > 0) lines.push({ page: p, y: current[0]!.y, items: current.sort((a, b) => a.x - b.x) })
        current = []
      }
      for (const item of items) {
        const top = current[0]
        if (top && Math.abs(top.y - item.y) > Math.max(2, top.height * 0.5)) flush()
        current.push(item)
      }
      flush()
      page.cleanup()
    }
  } catch (error) {
    if (error instanceof Error && error.name === 'PasswordException') {
      throw invalid(['body'], 'The PDF is protected by a password; print the report again without one')
    }
    throw invalid(['body'], 'The PDF could not be read; print the report to PDF again or paste the table')
  } finally {
    await task.destroy().catch(() => {})
  }
  return lines
}

/** Joins items closer than a space's width: "Birth" "Date" → "Birth Date". */
function phrases(line: Line): Item[] {
  const out: Item[] = []
  for (const item of line.items) {
    const last = out.at(-1)
    if (last && item.x - last.right < item.height * 0.6) {
      out[out.length - 1] = { ...last, text: `${last.text} ${item.text}`, right: item.right }
    } else out.push({ ...item })
  }
  return out
}

/** A line under the header, in columns; `gap` is its distance below the previous body line of its page. */
interface BodyLine {
  cells: string[]
  gap: number | null
}

const CONTINUATION = 0.8

function median(values: number[]): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

export async function readPdfTable(body: Buffer): Promise<string[][]> {
  // A copy: pdfjs hands its data to its worker, which detaches the buffer (a pooled Buffer shares it).
  const lines = await readLines(new Uint8Array(body))
  let columns: { x: number; label: string }[] | null = null
  let header: string[] | null = null
  const bodyLines: BodyLine[] = []
  let previous: Line | null = null
  for (const line of lines) {
    if (previous && previous.page !== line.page) previous = null
    const cells = phrases(line)
    const texts = cells.map((c) => c.text)
    if (isHeaderRow(texts)) {
      // The first header sets the columns; a page's repeated header is dropped.
      if (columns === null) {
        columns = cells.map((c) => ({ x: c.x, label: c.text }))
        header = texts
      }
      previous = null
      continue
    }
    if (columns === null) continue
    if (FOOTER.test(texts.join(' ').trim())) continue
    const row = columns.map(() => '')
    for (const item of line.items) {
      // The last column whose label starts at or left of the item (a little slack for alignment).
      let index = 0
      for (let i = 0; i < columns.length; i++) if (item.x >= columns[i]!.x - item.height * 0.5) index = i
      row[index] = row[index] ? `${row[index]} ${item.text}` : item.text
    }
    bodyLines.push({ cells: row, gap: previous ? previous.y - line.y : null })
    previous = line
  }
  if (header === null) return []

  const pitch = median(bodyLines.filter((l) => l.gap !== null && l.cells[0] !== '').map((l) => l.gap!))
  const rows: string[][] = [header]
  for (const line of bodyLines) {
    const above = rows.length > 1 ? rows.at(-1)! : null
    const continues =
      above && line.gap !== null && pitch !== null && line.cells[0] === '' && line.gap < CONTINUATION * pitch
    if (continues) {
      line.cells.forEach((cell, i) => {
        if (cell) above[i] = above[i] ? `${above[i]} ${cell}` : cell
      })
    } else rows.push(line.cells)
  }
  return rows
}
