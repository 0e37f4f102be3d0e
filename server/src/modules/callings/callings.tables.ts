import type { Generated, SqlBool } from 'kysely'
import { stakeTable, type RowsOf } from '../../db/table.ts'

export interface CallingsTable {
  /** The stake the row belongs to (db/stake-scope.ts fills it in). */
  stake_id: Generated<number>
  id: Generated<number>
  name: string
  /** lower(trim(name)); unique. */
  name_key: string
  key: string | null
  is_public: SqlBool
  system_defined: SqlBool
  max_slots: number
  created_at: string
  updated_at: string
}

export interface CallingPermissionsTable {
  /** The stake the row belongs to (db/stake-scope.ts fills it in). */
  stake_id: Generated<number>
  calling_id: number
  permission: string
}

export interface CallingSlotsTable {
  /** The stake the row belongs to (db/stake-scope.ts fills it in). */
  stake_id: Generated<number>
  calling_id: number
  slot_id: number
  user_id: number | null
  ward_id: number | null
  filled_at: string | null
  /** The holder's set apart: its date (YYYY-MM-DD) or "yes"; null when not known. Cleared with the holder. */
  set_apart: Generated<string | null>
}

export interface CallingSlotHistoryTable {
  /** The stake the row belongs to (db/stake-scope.ts fills it in). */
  stake_id: Generated<number>
  id: Generated<number>
  calling_id: number
  slot_id: number
  user_id: number
  from_at: string
  to_at: string | null
}

/** The callings domain's tables (db/table.ts); their rows name wards, so wards come first. */
export const callingsTables = {
  callings: stakeTable<CallingsTable>({
    transfer: { id: true, booleans: ['is_public', 'system_defined'], orderBy: ['id'] },
  }),
  calling_permissions: stakeTable<CallingPermissionsTable>({
    transfer: { refs: { calling_id: 'callings' }, orderBy: ['calling_id', 'permission'] },
  }),
  calling_slots: stakeTable<CallingSlotsTable>({
    transfer: {
      refs: { calling_id: 'callings', user_id: 'users', ward_id: 'wards' },
      orderBy: ['calling_id', 'slot_id'],
    },
  }),
  calling_slot_history: stakeTable<CallingSlotHistoryTable>({
    transfer: { id: true, refs: { calling_id: 'callings', user_id: 'users' }, orderBy: ['id'] },
  }),
}
export type CallingsTables = RowsOf<typeof callingsTables>
