import type { parse as CsvParse } from 'csv-parse/sync'
import { invalid } from '../../errors.ts'
import { layoutSegments } from './layout.ts'
import { MAX_ROWS } from './limits.ts'
import { extractItems, PdfLimit } from './pdf-text.ts'
import { EXPECTED_COLUMNS, isHeaderRow } from './report.ts'
import { clean, segmentRecords, type Segments } from './segments.ts'

/**
 * A report's body as tables and page text (docs/api-reference.md §15): CSV,
 * tab-separated text (a page or a table pasted from a browser or a
 * spreadsheet, a .tsv or .txt file), or an LCR report printed to PDF. A UTF-8
 * BOM and CRLF/LF line ends are fine. A body that cannot be read is a 422 on
 * `body`, never a 500. The server runs this on a worker thread (reader.ts),
 * with its limits; tests call it directly.
 */
export type Table = string[][]

export const REPORT_TYPES = ['text/csv', 'text/tab-separated-values', 'text/plain', 'application/pdf'] as const
export type ReportType = (typeof REPORT_TYPES)[number]

const unreadable = (msg: string) => invalid(['body'], msg, 'value_error')

type Parse = typeof CsvParse
let parser: Promise<Parse> | null = null
/** csv-parse, loaded on the first delimited report rather than at start (docs/performance.md). */
const csvParser = (): Promise<Parse> => (parser ??= import('csv-parse/sync').then((m) => m.parse))

const splitLine = (parse: Parse, line: string, sep: ',' | '\t'): string[] => {
  if (sep === '\t') return line.split('\t')
  try {
    return (parse(line, { delimiter: ',', relax_quotes: true, relax_column_count: true }) as string[][])[0] ?? []
  } catch {
    return line.split(',')
  }
}

/**
 * The separator, taken from the header row wherever it is (a pasted page
 * starts with the site's menu and title): tabs first, then commas. `null`
 * when no line is a header row.
 */
function findSeparator(parse: Parse, text: string, only: ',' | '\t' | null): ',' | '\t' | null {
  const seps = only ? [only] : (['\t', ','] as const)
  for (const line of text.split(/\r?\n/)) {
    for (const sep of seps) {
      if (line.includes(sep) && isHeaderRow(splitLine(parse, line, sep).map(clean))) return sep
    }
  }
  return null
}

/** The records of delimited text with their line numbers (1 = the first line). */
function readRecords(parse: Parse, text: string, delimiter: ',' | '\t' | null): { line: number; cells: string[] }[] {
  const body = text.replace(/^\uFEFF/, '')
  const sep = findSeparator(parse, body, delimiter) ?? delimiter ?? (body.includes('\t') ? '\t' : ',')
  try {
    const records = parse(body, {
      delimiter: sep,
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      info: true,
      max_record_size: 100_000,
    }) as unknown as { record: string[]; info: { lines: number } }[]
    if (records.length > MAX_ROWS + 1000) {
      throw invalid(['body'], `The report has more than ${MAX_ROWS} rows; import it in parts`, 'too_many_rows')
    }
    return records.map((r) => ({ line: r.info.lines, cells: r.record }))
  } catch (error) {
    if (
      !(error instanceof Error) ||
      !('code' in error) ||
      typeof error.code !== 'string' ||
      !error.code.startsWith('CSV_')
    )
      throw error
    throw unreadable(
      `The report could not be read as ${sep === '\t' ? 'tab-separated' : 'comma-separated'} text: ${
        error.message.split('\n', 1)[0]
      }`,
    )
  }
}

/** The cells of delimited text, every record (tests and callers that want the bare table). */
export async function readDelimited(text: string, delimiter: ',' | '\t' | null): Promise<Table> {
  return readRecords(await csvParser(), text, delimiter).map((r) => r.cells)
}

/** A PDF's tables; past a limit, a PdfLimit; a PDF that cannot be read, a 422 saying why. */
async function readPdf(body: Uint8Array): Promise<Segments> {
  try {
    // pdfjs takes a plain Uint8Array, not a Buffer.
    return layoutSegments(await extractItems(Buffer.isBuffer(body) ? new Uint8Array(body) : body))
  } catch (error) {
    if (error instanceof PdfLimit) throw error
    if (error instanceof Error && error.name === 'PasswordException') {
      throw unreadable('The PDF is protected by a password; print the report again without one')
    }
    throw unreadable('The PDF could not be read; print the report to PDF again or paste the table')
  }
}

/** Any body of the four report types as tables and page text. */
export async function readSegments(body: Uint8Array, type: ReportType): Promise<Segments> {
  if (body.length === 0) throw unreadable('The report is empty')
  const segments =
    type === 'application/pdf'
      ? await readPdf(body)
      : segmentRecords(
          readRecords(await csvParser(), new TextDecoder('utf-8').decode(body), type === 'text/csv' ? ',' : null),
        )
  if (segments.tables.length === 0) {
    throw invalid(['body'], `The report's columns were not recognised. ${EXPECTED_COLUMNS}`)
  }
  return segments
}

/** Kept for the reader's tests: the table of a body, header and rows (the first table's header). */
export async function readTable(body: Uint8Array, type: ReportType): Promise<Table> {
  const segments = await readSegments(body, type)
  return [segments.tables[0]!.header, ...segments.tables.flatMap((t) => t.rows.map((r) => r.cells))]
}
