import type { Generated } from 'kysely'
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

/** The speaking domain's tables, composed into `DB` by db/schema.ts. */
export interface SpeakingTables {
  speaking_overrides: SpeakingOverridesTable
  speaking_topics: SpeakingTopicsTable
  speaking_feeds: SpeakingFeedsTable
}
