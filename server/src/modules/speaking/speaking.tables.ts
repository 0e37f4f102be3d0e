import type { Generated } from 'kysely'
import { stakeTable, type RowsOf } from '../../db/table.ts'
export interface SpeakingOverridesTable {
  stake_id: Generated<number>
  year: number
  month: number
  /** Always the High Councilor calling; part of the key to the seat (calling_slots). */
  calling_id: number
  slot_id: number
  /** null = not speaking that month. */
  ward_id: number | null
  updated_at: string
}

export interface SpeakingTopicsTable {
  stake_id: Generated<number>
  year: number
  month: number
  topic: string
  reference: string | null
  updated_at: string
}

export interface SpeakingFeedsTable {
  stake_id: Generated<number>
  user_id: number
  /** SHA-256 (hex) of the token; the token itself is never stored. */
  token_hash: string
  created_at: string
}

/** The speaking domain's tables (db/table.ts). */
export const speakingTables = {
  speaking_overrides: stakeTable<SpeakingOverridesTable>({
    transfer: { refs: { calling_id: 'callings', ward_id: 'wards' }, orderBy: ['year', 'month', 'slot_id'] },
  }),
  speaking_topics: stakeTable<SpeakingTopicsTable>({ transfer: { orderBy: ['year', 'month'] } }),
  speaking_feeds: stakeTable<SpeakingFeedsTable>({ transfer: { never: 'credentials (calendar-feed token hashes)' } }),
}
export type SpeakingTables = RowsOf<typeof speakingTables>
