import { parentPort, workerData } from 'node:worker_threads'
import type { ImportKind } from '@stake/contract'
import { ValidationFailure } from '../../errors.ts'
import { PdfLimit } from './pdf-text.ts'
import { readReport } from './rows.ts'
import { readSegments, type ReportType } from './tables.ts'
import type { Answer } from './reader.ts'

/**
 * The report reader's thread (reader.ts starts it): reads one report into its
 * rows and answers once. Its first message says its code has loaded, so that
 * the time limit counts the reading, not a busy machine's start of a thread.
 */
const { data, type, kind } = workerData as { data: Uint8Array; type: ReportType; kind: ImportKind | 'auto' }
const answer = (message: Answer) => parentPort!.postMessage(message)
answer({ started: true })
try {
  answer({ ok: true, report: readReport(await readSegments(data, type), kind) })
} catch (error) {
  answer({
    ok: false,
    tooLarge: error instanceof PdfLimit ? error.message : null,
    invalid: error instanceof ValidationFailure ? error.errors : null,
  })
}
