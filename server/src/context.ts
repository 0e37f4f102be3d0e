import type { Kysely } from 'kysely'
import type { Config } from './config.ts'
import type { Clock } from './clock.ts'
import type { Dialect } from './db/database.ts'
import type { DB } from './db/schema.ts'

export interface AccessClaims {
  userId: number
  sessionId: string
}

export type VerifyResult = { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' }

/**
 * The capabilities below are implemented by the auth module (tokens.ts,
 * passwords.ts) and named here, so the infrastructure (the auth plugin, jobs)
 * can hold them without importing a module.
 */
export interface TokenIssuer {
  readonly ttlSeconds: number
  sign(claims: AccessClaims, now: Date): Promise<string>
  verify(token: string, now: Date): Promise<VerifyResult>
}

export interface Hasher {
  hash(password: string): Promise<string>
  verify(passwordHash: string, password: string): Promise<boolean>
  /** As long as a real verification, for unknown accounts (timing tells nothing). */
  verifyNothing(password: string): Promise<false>
}

/** What every module gets: built once in buildApp, passed down explicitly. */
export interface AppContext {
  config: Config
  db: Kysely<DB>
  dialect: Dialect
  clock: Clock
  tokens: TokenIssuer
  hasher: Hasher
}
