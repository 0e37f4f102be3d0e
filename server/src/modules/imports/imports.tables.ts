import type { Generated, SqlBool } from 'kysely'
import { stakeTable, type RowsOf } from '../../db/table.ts'

/** Table types of the LCR imports (migration 20261129010000_imports). */
export interface ImportsTable {
  stake_id: Generated<number>
  id: Generated<number>
  created_by: number
  kind: 'members' | 'callings'
  ward_id: number | null
  release_missing: SqlBool
  status: 'preview' | 'applied'
  /** JSON: the report's kept rows (ReportRow[]), never gender, age or birth date. */
  rows: string
  /** JSON: the computed preview (ignored columns, summary, changes, problems). */
  preview: string
  created_at: string
  expires_at: string
  applied_at: string | null
}

/** The imports domain's tables (db/table.ts). */
export const importsTables = {
  imports: stakeTable<ImportsTable>({ transfer: { never: 'a preview kept for an hour, not the stake’s data' } }),
}
export type ImportsTables = RowsOf<typeof importsTables>
