import { parentPort, workerData } from 'node:worker_threads'
import { extractItems, PdfLimit } from './pdf-text.ts'

/** The PDF worker's body (pdf.ts starts it): reads the text items of one PDF and answers once. */
const { data } = workerData as { data: Uint8Array }
try {
  const items = await extractItems(data)
  parentPort!.postMessage({ ok: true, items })
} catch (error) {
  const name = error instanceof Error ? error.name : ''
  parentPort!.postMessage({
    ok: false,
    limit: error instanceof PdfLimit ? error.limit : null,
    password: name === 'PasswordException',
    message: error instanceof PdfLimit ? error.message : null,
  })
}
