import { parse } from 'csv-parse/sync'
import { invalid } from '../../errors.ts'
import { readPdfTable } from './pdf.ts'

/**
 * A report's body as a table of text cells (docs/api-reference.md §15): CSV,
 * tab-separated (a table pasted from a browser or a spreadsheet), or an LCR
 * report printed to PDF. A UTF-8 BOM and CRLF/LF line ends are fine. A body
 * that cannot be read is a 422 on `body`, never a 500.
 */
export type Table = string[][]

export const REPORT_TYPES = ['text/csv', 'text/tab-separated-values', 'text/plain', 'application/pdf'] as const
export type ReportType = (typeof REPORT_TYPES)[number]

const unreadable = (msg: string) => invalid(['body'], msg, 'value_error')

/** The cells of delimited text; `delimiter` null: tabs when the first line has one, else commas. */
export function readDelimited(text: string, delimiter: ',' | '\t' | null): Table {
  const body = text.replace(/^\uFEFF/, '')
  const firstLine = body.slice(0, body.search(/\r?\n|$/))
  const sep = delimiter ?? (firstLine.includes('\t') ? '\t' : ',')
  try {
    return parse(body, {
      delimiter: sep,
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
    }) as Table
  } catch (error) {
    throw unreadable(
      `The report could not be read as ${sep === '\t' ? 'tab-separated' : 'comma-separated'} text: ${
        error instanceof Error ? error.message.split('\n', 1)[0] : 'malformed'
      }`,
    )
  }
}

/** Any body of the four report types as a table. */
export async function readTable(body: Buffer, type: ReportType): Promise<Table> {
  if (body.length === 0) throw unreadable('The report is empty')
  if (type === 'application/pdf') return readPdfTable(body)
  const text = new TextDecoder('utf-8').decode(body)
  if (type === 'text/csv') return readDelimited(text, ',')
  if (type === 'text/tab-separated-values') return readDelimited(text, '\t')
  return readDelimited(text, null)
}
