import type { Generated } from 'kysely'
import { stakeTable, type RowsOf } from '../../db/table.ts'

export interface WardsTable {
  /** The stake the row belongs to (db/stake-scope.ts fills it in). */
  stake_id: Generated<number>
  id: Generated<number>
  name: string
  name_key: string
  start_time: number
  /** 1–5: the Sunday of the month the ward's speaker comes (5 = the last when there is no fifth). */
  speaking_sunday: Generated<number>
  created_at: string
  updated_at: string
}

/** The wards domain's tables (db/table.ts). */
export const wardsTables = {
  wards: stakeTable<WardsTable>({ transfer: { id: true, orderBy: ['id'] } }),
}
export type WardsTables = RowsOf<typeof wardsTables>
