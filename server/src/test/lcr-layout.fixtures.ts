import { PDFDocument, StandardFonts } from 'pdf-lib'

/**
 * PDFs laid out as LCR prints its reports (docs/imports.md), built in the
 * test with invented people: unit lines and a title on every page, one table
 * per organization with its own header (columns where the caller puts
 * them, labels that may wrap onto two lines), cells that wrap printed centred
 * on their row, "Count: N" under a table, a footer on every page.
 */

export type Block =
  | { heading: string; size?: number }
  | {
      /** Labels; a "\n" wraps a label onto a second line. */
      header: string[]
      /** Each column's left edge. */
      xs: number[]
      /** Cells; a "\n" wraps a cell, printed centred on its row. */
      rows: string[][]
      /** The "Count: N" under the table (null: none). */
      count?: number | null
    }

export interface LayoutOptions {
  title?: string
  unit?: string
  /** Rows per page before a page break (the table's header repeats on the next page). */
  rowsPerPage?: number
}

export async function layoutPdf(blocks: Block[], options: LayoutOptions = {}): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  const size = 8
  const wrap = 9
  const perPage = options.rowsPerPage ?? 1000
  let page = doc.addPage([612, 792])
  let y = 0
  let pages = 1
  const chrome = () => {
    page.drawText(options.title ?? 'Organizations and Callings', { x: 28, y: 760, size: 14, font: bold })
    page.drawText(options.unit ?? 'Cedar Hollow Ward (445566)', { x: 430, y: 760, size: 9, font })
    page.drawText('Juniper Stake (778899)', { x: 34, y: 742, size: 9, font })
    y = 715
  }
  const footers: ((n: number) => void)[] = []
  const footer = () => {
    const p = page
    const here = pages
    footers.push((total) => {
      p.drawText('12 Jul 2026', { x: 28, y: 19, size: 7, font })
      p.drawText('For Church Use Only © 2026 by Intellectual Reserve, Inc. All rights reserved.', {
        x: 150,
        y: 19,
        size: 7,
        font,
      })
      p.drawText(`Page ${here} of ${total}`, { x: 540, y: 19, size: 7, font })
    })
  }
  const newPage = () => {
    footer()
    page = doc.addPage([612, 792])
    pages += 1
    chrome()
  }
  chrome()
  for (const block of blocks) {
    if ('heading' in block) {
      if (y < 80) newPage()
      page.drawText(block.heading, { x: 34, y, size: block.size ?? 12, font: bold })
      y -= 20
      continue
    }
    const drawHeader = () => {
      const wrapped = block.header.some((h) => h.includes('\n'))
      block.header.forEach((h, i) => {
        h.split('\n').forEach((part, n) => page.drawText(part, { x: block.xs[i]!, y: y - n * wrap, size, font: bold }))
      })
      y -= wrapped ? 26 : 17
    }
    drawHeader()
    let onPage = 0
    for (const row of block.rows) {
      const lines = Math.max(1, ...row.map((c) => c.split('\n').length))
      const height = Math.max(13.4, lines * wrap + 4.4)
      if (y - height < 60 || onPage >= perPage) {
        newPage()
        drawHeader()
        onPage = 0
      }
      const baseline = y - (height - 13.4) / 2
      row.forEach((cell, i) => {
        const parts = cell ? cell.split('\n') : []
        const top = baseline + ((parts.length - 1) * wrap) / 2
        parts.forEach((part, n) => page.drawText(part, { x: block.xs[i]! + 2, y: top - n * wrap, size, font }))
      })
      y -= height
      onPage += 1
    }
    if (block.count !== null) {
      page.drawText(`Count: ${block.count ?? block.rows.length}`, { x: 34, y: y - 3, size, font })
      y -= 21
    }
  }
  footer()
  for (const draw of footers) draw(pages)
  return Buffer.from(await doc.save())
}
