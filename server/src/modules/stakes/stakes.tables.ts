import type { Generated, SqlBool } from 'kysely'
import { deploymentTable, type RowsOf } from '../../db/table.ts'

/** One stake (docs/api-reference.md §14): its settings, which were environment variables. */
export interface StakesTable {
  id: Generated<number>
  name: string
  /** Its address (`/s/<slug>`, `?stake=<slug>`): unique in the deployment. */
  slug: string
  timezone: string
  language: string
  sp_approvals_required: number
  hc_approvals_required: number
  high_council_seats: number
  /** The default stake of an install that predates stakes follows the environment variables until its settings are saved in the app. */
  settings_from_env: SqlBool
  created_at: string
  updated_at: string
}

/** A signup code of the operator's (docs/api-reference.md §14): deployment-wide, only its hash kept. */
export interface SignupCodesTable {
  /** SHA-256 (hex) of the code. */
  code_hash: string
  uses_left: number
  created_at: string
}

/** The stakes domain's tables (db/table.ts). */
export const stakesTables = {
  stakes: deploymentTable<StakesTable>({ why: 'the stakes themselves (an export carries its stake’s settings)' }),
  signup_codes: deploymentTable<SignupCodesTable>({ why: 'the operator’s codes create stakes' }),
}
export type StakesTables = RowsOf<typeof stakesTables>
