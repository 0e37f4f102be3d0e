import type { Generated, SqlBool } from 'kysely'
import { deploymentTable, stakeTable, type RowsOf } from '../../db/table.ts'

export interface SessionsTable {
  /** The stake the row belongs to (db/stake-scope.ts fills it in). */
  stake_id: Generated<number>
  id: string
  user_id: number
  token_hash: string
  previous_token_hash: string | null
  rotated_at: string | null
  created_at: string
  expires_at: string
  last_used_at: string
  user_agent: string | null
  ip: string | null
  /** Salt of the last rotation: the next secret is HMAC(salt, previous secret). */
  rotation_salt: Generated<string | null>
  /** Signed in on a shared computer: ends after SHARED_SESSION_IDLE_SECONDS without activity (docs/api-reference.md §13). */
  shared: Generated<SqlBool>
}

/** Hashes of the refresh secrets a session rotated out (S6): only these are reuse. */
export interface SessionRetiredTokensTable {
  /** The stake the row belongs to (db/stake-scope.ts fills it in). */
  stake_id: Generated<number>
  session_id: string
  token_hash: string
  retired_at: string
}

export interface LoginThrottleTable {
  /** 'account' or 'ip' */
  scope: string
  key: string
  failures: number
  window_start: string
  locked_until: string | null
  /** 1 when the attempt that last wrote the row may go on to the password check (S4). */
  allowed: Generated<number>
}

/** The auth domain's tables (db/table.ts). */
export const authTables = {
  sessions: stakeTable<SessionsTable>({ transfer: { never: 'credentials (refresh-token hashes)' } }),
  session_retired_tokens: stakeTable<SessionRetiredTokensTable>({
    transfer: { never: 'credentials (rotated refresh-token hashes)' },
  }),
  login_throttle: deploymentTable<LoginThrottleTable>({
    why: 'sign-in happens before any stake is known (an email or a client address)',
  }),
}
export type AuthTables = RowsOf<typeof authTables>
