import type { ImportPreview } from '@stake/contract'
import type { ReportRow, VacantRow } from './rows.ts'
import type { IgnoredLine } from './segments.ts'

/** What an import keeps between its preview and its apply (the `imports` row's JSON columns). */

export interface StoredPreview {
  ignored_columns: string[]
  summary: ImportPreview['summary']
  changes: ImportPreview['changes']
  problems: ImportPreview['problems']
  ignored_lines?: IgnoredLine[]
  vacant?: ImportPreview['vacant']
  rows_total?: number
}

export interface StoredRows {
  rows: ReportRow[]
  problems: ImportPreview['problems']
  vacant?: VacantRow[]
  /** The importer's answers to possible matches, by the person's first row. */
  decisions?: Record<number, 'accept' | 'reject'>
}

/** A stored preview as answered; previews stored before page text and vacancies were kept show none. */
export const shownOf = (stored: StoredPreview) => ({
  ...stored,
  ignored_lines: stored.ignored_lines ?? [],
  vacant: stored.vacant ?? [],
  rows_total: stored.rows_total ?? 0,
})
