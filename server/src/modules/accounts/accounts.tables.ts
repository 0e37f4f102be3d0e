import type { Generated } from 'kysely'

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
