import { invalid } from '../../errors.ts'
import { isHeaderRow } from './report.ts'

/**
 * An LCR report printed to PDF, as a table (docs/api-reference.md §15). The
 * PDF's text items carry positions, not cells: items on one baseline make a
 * line; the report's column header line gives each column its x-range (from
 * its label's left edge to the next label's); every later line's items fall
 * into the column whose range holds their left edge. Lines before the first
 * header (the report's title, the ward, the date) are dropped, and so are the
 * header repeated on every page and the page footers. A row that wraps onto a
 * second line is not joined (LCR's reports keep one row per line).
 */

interface Item {
  text: string
  x: number
  y: number
  right: number
  height: number
}

type Line = Item[]

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
      let current: Line = []
      for (const item of items) {
        const top = current[0]
        if (top && Math.abs(top.y - item.y) > Math.max(2, top.height * 0.5)) {
          lines.push(current.sort((a, b) => a.x - b.x))
          current = []
        }
        current.push(item)
      }
      if (current.length > 0) lines.push(current.sort((a, b) => a.x - b.x))
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
  for (const item of line) {
    const last = out.at(-1)
    if (last && item.x - last.right < item.height * 0.6) {
      out[out.length - 1] = { ...last, text: `${last.text} ${item.text}`, right: item.right }
    } else out.push({ ...item })
  }
  return out
}

export async function readPdfTable(body: Buffer): Promise<string[][]> {
  // A copy: pdfjs hands its data to its worker, which detaches the buffer (a pooled Buffer shares it).
  const lines = await readLines(new Uint8Array(body))
  let columns: { x: number; label: string }[] | null = null
  const rows: string[][] = []
  for (const line of lines) {
    const cells = phrases(line)
    const texts = cells.map((c) => c.text)
    if (isHeaderRow(texts)) {
      // The first header sets the columns; a page's repeated header is dropped.
      if (columns === null) {
        columns = cells.map((c) => ({ x: c.x, label: c.text }))
        rows.push(texts)
      }
      continue
    }
    if (columns === null) continue
    if (FOOTER.test(texts.join(' ').trim())) continue
    const row = columns.map(() => '')
    for (const item of line) {
      // The last column whose label starts at or left of the item (a little slack for alignment).
      let index = 0
      for (let i = 0; i < columns.length; i++) if (item.x >= columns[i]!.x - item.height * 0.5) index = i
      row[index] = row[index] ? `${row[index]} ${item.text}` : item.text
    }
    rows.push(row)
  }
  return rows
}
