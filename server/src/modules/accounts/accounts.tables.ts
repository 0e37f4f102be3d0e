import type { Generated } from 'kysely'
import { deploymentTable, stakeTable, type RowsOf } from '../../db/table.ts'

/** Table types of accounts (migration 20261129020100_accounts, docs/api-reference.md §16). */
export type AccountTokenPurpose = 'invitation' | 'password_reset'

export interface AccountTokensTable {
  stake_id: Generated<number>
  id: Generated<number>
  user_id: number
  purpose: AccountTokenPurpose
  /** SHA-256 (hex) of the token; the token itself is never kept. */
  token_hash: string
  created_at: string
  expires_at: string
  /** Spent: the invitation accepted, the password chosen. */
  used_at: string | null
  /** Replaced by a newer token of the same purpose (or ended by a password change). */
  voided_at: string | null
}

export interface PasskeysTable {
  stake_id: Generated<number>
  id: Generated<number>
  user_id: number
  /** base64url, as the browser names the credential. */
  credential_id: string
  /** base64url of the COSE public key. */
  public_key: string
  /** The signature counter last seen (bigint on PostgreSQL: read with Number()). */
  counter: Generated<number | string>
  /** JSON array of the authenticator's transports, or null. */
  transports: string | null
  name: string
  created_at: string
  last_used_at: string | null
}

export interface WebauthnChallengesTable {
  /** SHA-256 (hex) of the challenge handed out. */
  challenge_hash: string
  purpose: 'register' | 'login'
  /** Registration: whose (stake and user); sign-in: null. */
  stake_id: number | null
  user_id: number | null
  expires_at: string
}

/** The accounts domain's tables (db/table.ts). */
export const accountsTables = {
  account_tokens: stakeTable<AccountTokensTable>({
    transfer: { never: 'credentials (invitation and reset token hashes)' },
  }),
  passkeys: stakeTable<PasskeysTable>({ transfer: { never: 'credentials (the users’ passkeys)' } }),
  webauthn_challenges: deploymentTable<WebauthnChallengesTable>({
    why: 'a passkey sign-in asks for a challenge before any stake is known',
    stakeColumn: 'a registration’s challenge notes whose it is (nullable); a sign-in’s has none',
  }),
}
export type AccountsTables = RowsOf<typeof accountsTables>
