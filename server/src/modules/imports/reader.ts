import { Worker } from 'node:worker_threads'
import type { ImportKind } from '@stake/contract'
import { AppError, invalid, unavailable, ValidationFailure, type FieldError } from '../../errors.ts'
import { READ_HEAP_MB, READ_TIME_MS } from './limits.ts'
import type { Report } from './rows.ts'
import type { ReportType } from './tables.ts'

/**
 * A report is read (docs/api-reference.md §15) on a worker thread of its own,
 * never on the thread that answers requests: parsing a 5 MiB CSV or the text
 * of a PDF costs a second or more of CPU, and a hostile PDF (one large
 * compressed stream drawn on many pages) up to the time limit. The thread is
 * bounded by time, heap and the PDF's page limits, and stopped when a limit is
 * passed or the client goes away. What comes back is the report's rows; the
 * plan against the stake's data is made here.
 */

/**
 * The worker's entry: compiled JS in production; under tsx (tests) node's own
 * type stripping runs the thread's plain TypeScript (read-thread.ts and what
 * it imports), far faster than loading pdfjs through tsx's loader.
 */
function threadBoot(): string {
  const compiled = import.meta.url.endsWith('.js')
  const thread = new URL(compiled ? './read-thread.js' : './read-thread.ts', import.meta.url).href
  return `import(${JSON.stringify(thread)})`
}

/** The thread's messages: its code has loaded, then one answer. */
export type Answer =
  | { started: true }
  | { ok: true; report: Report }
  | {
      ok: false
      /** A limit the report passed, in words that name it. */
      tooLarge: string | null
      invalid: FieldError[] | null
    }

/** A busy machine may take a while to start a thread; past this the reading is refused as the server being busy. */
const START_MS = 20_000

const tooLarge = (message: string) => new AppError(413, 'report_too_large', message)

function refusal(answer: Extract<Answer, { ok: false }>, pdf: boolean): Error {
  if (answer.tooLarge) return tooLarge(answer.tooLarge)
  if (answer.invalid) return new ValidationFailure(answer.invalid)
  return unreadable(pdf)
}

const unreadable = (pdf: boolean) =>
  invalid(
    ['body'],
    pdf
      ? 'The PDF could not be read; print the report to PDF again or paste the table'
      : 'The report could not be read; export it from LCR again or paste the table',
  )

let started = 0
/** Threads started to read reports since the process started (tests: every report is read on one). */
export const threadsStarted = (): number => started

/** The report's rows, read on a worker thread within the limits. */
export function readReportOffThread(
  body: Buffer,
  type: ReportType,
  kind: ImportKind | 'auto',
  signal?: AbortSignal,
): Promise<Report> {
  const pdf = type === 'application/pdf'
  return new Promise<Report>((resolve, reject) => {
    // A copy the thread owns (a pooled Buffer shares its memory with others).
    const data = new Uint8Array(body)
    started++
    const thread = new Worker(threadBoot(), {
      eval: true,
      workerData: { data, type, kind },
      transferList: [data.buffer],
      resourceLimits: { maxOldGenerationSizeMb: READ_HEAP_MB, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
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
    const overTime = () =>
      finish(() =>
        reject(
          pdf
            ? invalid(
                ['body'],
                `Reading the PDF took longer than ${READ_TIME_MS / 1000} seconds, the limit; print fewer pages or paste the table`,
                'pdf_time_limit',
              )
            : invalid(
                ['body'],
                `Reading the report took longer than ${READ_TIME_MS / 1000} seconds, the limit; import it in parts`,
                'time_limit',
              ),
        ),
      )
    let timer = setTimeout(
      () => finish(() => reject(unavailable('The server is busy; try the import again shortly'))),
      START_MS,
    )
    const onAbort = () => finish(() => reject(new AppError(499, null, 'The client went away')))
    signal?.addEventListener('abort', onAbort)
    if (signal?.aborted) onAbort()
    thread.on('message', (answer: Answer) => {
      if ('started' in answer) {
        // The time limit counts the reading from here.
        clearTimeout(timer)
        if (!settled) timer = setTimeout(overTime, READ_TIME_MS)
        return
      }
      finish(() => (answer.ok ? resolve(answer.report) : reject(refusal(answer, pdf))))
    })
    thread.on('error', (error: Error & { code?: string }) =>
      finish(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? tooLarge(`Reading the report needed more than ${READ_HEAP_MB} MiB of memory, the limit`)
            : unreadable(pdf),
        ),
      ),
    )
    thread.on('exit', () => finish(() => reject(unreadable(pdf))))
  })
}
