import { createDatabase as openDatabase, type Database, type DatabaseOptions as Options } from './db/database.ts'
import { StakeScopePlugin, type StakeScope } from './db/stake-scope.ts'
import { STAKE_TABLES } from './modules/tables.ts'

/**
 * The app's database (db/database.ts): `sqlite:<path>` (`sqlite::memory:` for
 * tests) or `postgres://...`, scoped by the stake-owned tables the
 * declarations name (modules/tables.ts).
 */
export type DatabaseOptions = Omit<Options, 'stakeTables'>

export function createDatabase(url: string, options: DatabaseOptions = {}): Database {
  return openDatabase(url, { ...options, stakeTables: STAKE_TABLES })
}

/** The app's stake-scope plugin with `fallback` as the scope outside any context (db/stake-scope.ts). */
export function stakeScopePlugin(fallback: StakeScope | null = null): StakeScopePlugin {
  return new StakeScopePlugin(STAKE_TABLES, fallback)
}
