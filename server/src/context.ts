import type { Kysely } from 'kysely'
import type { Config } from './config.ts'
import type { Clock } from './clock.ts'
import type { Dialect } from './db/database.ts'
import type { DB } from './db/schema.ts'
import type { AccessTokens } from './modules/auth/tokens.ts'
import type { PasswordHasher } from './modules/auth/passwords.ts'

/** What every module gets: built once in buildApp, passed down explicitly. */
export interface AppContext {
  config: Config
  db: Kysely<DB>
  dialect: Dialect
  clock: Clock
  tokens: AccessTokens
  hasher: PasswordHasher
}
