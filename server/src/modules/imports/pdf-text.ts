import { PDF_MAX_ITEMS, PDF_MAX_PAGE_CONTENT, PDF_MAX_PAGES } from './limits.ts'

/**
 * The positioned text of a PDF (docs/api-reference.md §15): every text item
 * with its page, left edge, baseline, width and height. Runs inside the
 * report reader's thread (read-thread.ts), never on the server's event loop.
 * Plain erasable TypeScript: the thread runs it with node's own type
 * stripping under tests.
 */

export interface PdfItem {
  page: number
  text: string
  x: number
  y: number
  right: number
  height: number
}

/** A limit the PDF passed (413): its message names the limit. */
export class PdfLimit extends Error {}

const megabytes = (bytes: number) => `${bytes / 2 ** 20} MB`

export async function extractItems(data: Uint8Array): Promise<PdfItem[]> {
  // pdf-lib (the measure) and pdfjs (the reader) load only for a PDF: a CSV's thread starts without them.
  const { pageOverContentLimit } = await import('./pdf-content.ts')
  const over = await pageOverContentLimit(data)
  if (over) {
    throw new PdfLimit(
      `Page ${over.page} of the PDF holds more than ${megabytes(PDF_MAX_PAGE_CONTENT)} of drawing, the limit for a page (a printed report's page holds well under 0.1 MB); print the report from LCR again or paste the table`,
    )
  }
  const { getDocument, VerbosityLevel, GlobalWorkerOptions } = await import('pdfjs-dist/legacy/build/pdf.mjs')
  GlobalWorkerOptions.workerSrc ||= ''
  const task = getDocument({
    data,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: VerbosityLevel.ERRORS,
  })
  const items: PdfItem[] = []
  try {
    const doc = await task.promise
    if (doc.numPages > PDF_MAX_PAGES) {
      throw new PdfLimit(`The PDF has ${doc.numPages} pages; at most ${PDF_MAX_PAGES} pages are read`)
    }
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p)
      const content = await page.getTextContent()
      for (const raw of content.items) {
        if (!('str' in raw)) continue
        const text = raw.str.replaceAll('\u0000', '').replace(/\s+/g, ' ').trim()
        if (text === '') continue
        const [, , , d, x, y] = raw.transform as number[]
        const height = Math.abs(raw.height || d || 10)
        items.push({ page: p, text, x: x!, y: y!, right: x! + raw.width, height })
        if (items.length > PDF_MAX_ITEMS) {
          throw new PdfLimit(`The PDF holds more than ${PDF_MAX_ITEMS} pieces of text; print fewer pages at once`)
        }
      }
      page.cleanup()
    }
  } finally {
    await task.destroy().catch(() => {})
  }
  return items
}
