import { Worker } from 'node:worker_threads'
import { AppError, invalid } from '../../errors.ts'
import { layoutSegments } from './layout.ts'
import { PDF_HEAP_MB, PDF_MAX_PAGES, PDF_TIME_MS } from './limits.ts'
import type { PdfItem } from './pdf-text.ts'
import type { Segments } from './segments.ts'

/**
 * An LCR report printed to PDF (docs/api-reference.md §15). Its text is read
 * on a worker thread of its own, never on the thread that answers requests:
 * a hostile PDF (one large compressed stream drawn on many pages) costs CPU
 * there, bounded by time, heap and page limits, and the thread is stopped
 * when a limit is passed or the client goes away. The positioned text is
 * then laid out into tables here (layout.ts): that part is linear and cheap.
 */

/**
 * The worker's entry: compiled JS in production; under tsx (tests) node's own
 * type stripping runs the thread's plain TypeScript (pdf-thread.ts and
 * pdf-text.ts), far faster than loading pdfjs through tsx's loader.
 */
function threadBoot(): string {
  const compiled = import.meta.url.endsWith('.js')
  const thread = new URL(compiled ? './pdf-thread.js' : './pdf-thread.ts', import.meta.url).href
  return `import(${JSON.stringify(thread)})`
}

const tooLarge = (message: string) => new AppError(413, 'report_too_large', message)

type Answer =
  | { ok: true; items: PdfItem[] }
  | { ok: false; limit: 'pages' | 'items' | null; password: boolean; message: string | null }

/** The PDF's text items, read on a worker thread within the limits. */
function readPdfItems(body: Buffer, signal?: AbortSignal): Promise<PdfItem[]> {
  return new Promise<PdfItem[]>((resolve, reject) => {
    // A copy the thread owns (a pooled Buffer shares its memory with others).
    const data = new Uint8Array(body)
    const thread = new Worker(threadBoot(), {
      eval: true,
      workerData: { data },
      transferList: [data.buffer],
      resourceLimits: { maxOldGenerationSizeMb: PDF_HEAP_MB, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    })
    let settled = false
    const finish = (fn: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      void thread.terminate()
      fn()
    }
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            invalid(
              ['body'],
              `Reading the PDF took longer than ${PDF_TIME_MS / 1000} seconds, the limit; print fewer pages or paste the table`,
              'pdf_time_limit',
            ),
          ),
        ),
      PDF_TIME_MS,
    )
    const onAbort = () => finish(() => reject(new AppError(499, null, 'The client went away')))
    signal?.addEventListener('abort', onAbort)
    if (signal?.aborted) onAbort()
    thread.on('message', (answer: Answer) =>
      finish(() => {
        if (answer.ok) return resolve(answer.items)
        if (answer.limit === 'pages') return reject(tooLarge(answer.message ?? `More than ${PDF_MAX_PAGES} pages`))
        if (answer.limit === 'items') return reject(tooLarge(answer.message ?? 'Too much text'))
        if (answer.password) {
          return reject(invalid(['body'], 'The PDF is protected by a password; print the report again without one'))
        }
        reject(invalid(['body'], 'The PDF could not be read; print the report to PDF again or paste the table'))
      }),
    )
    thread.on('error', (error: Error & { code?: string }) =>
      finish(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? tooLarge(`Reading the PDF needed more than ${PDF_HEAP_MB} MiB of memory, the limit`)
            : invalid(['body'], 'The PDF could not be read; print the report to PDF again or paste the table'),
        ),
      ),
    )
    thread.on('exit', () =>
      finish(() =>
        reject(invalid(['body'], 'The PDF could not be read; print the report to PDF again or paste the table')),
      ),
    )
  })
}

export async function readPdfSegments(body: Buffer, signal?: AbortSignal): Promise<Segments> {
  return layoutSegments(await readPdfItems(body, signal))
}
