import type { Generated } from 'kysely'
import { stakeTable, type RowsOf } from '../../db/table.ts'

/** One ward or stake organization a High Councilor seat oversees (migration 20261129030200_stewardships). */
export interface StewardshipsTable {
  stake_id: Generated<number>
  id: Generated<number>
  /** The seat: slot_id of the High Councilor calling. */
  slot_id: number
  ward_id: number | null
  organization: string | null
  /** Lower-cased organization: one per seat. */
  organization_key: string | null
  /** The order the organizations were saved in. */
  position: number
}

/** The stewardships domain's tables (db/table.ts). */
export const stewardshipsTables = {
  stewardships: stakeTable<StewardshipsTable>({ transfer: { id: true, refs: { ward_id: 'wards' }, orderBy: ['id'] } }),
}
export type StewardshipsTables = RowsOf<typeof stewardshipsTables>
