import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely'
import { acrossStakes } from './stake-scope.ts'

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

/**
 * Every `<yyyymmddhhmmss>_<name>.ts` file in db/migrations, in name order
 * (`.js` in the compiled server, server/dist).
 */
const provider: MigrationProvider = {
  async getMigrations() {
    const migrations: Record<string, Migration> = {}
    const files = fs
      .readdirSync(MIGRATIONS_DIR)
      .filter((f) => /^\d{14}_[\w-]+\.[jt]s$/.test(f))
      .sort()
    for (const file of files) {
      migrations[file.replace(/\.[jt]s$/, '')] = await import(pathToFileURL(path.join(MIGRATIONS_DIR, file)).href)
    }
    return migrations
  },
}

/** The names of the migrations this code knows, oldest first (a backup newer than the last is refused). */
export async function migrationNames(): Promise<string[]> {
  return Object.keys(await provider.getMigrations()).sort()
}

/**
 * Brings the schema up to date. Used by start-up, the CLI and the tests alike.
 * Migrations are forward-only: a merged migration is never edited and there is
 * no down().
 */
export function migrate(db: Kysely<any>): Promise<string[]> {
  // Migrations see every stake's rows as they are: no stake filter
  // (stake-scope.ts), and PostgreSQL's row-level security set to every stake.
  return acrossStakes(async () => {
    const raw = db.withoutPlugins()
    await applyRenames(raw)
    const migrator = new Migrator({ db: raw, provider })
    const { error, results } = await migrator.migrateToLatest()
    if (error) throw error
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
  })
}

/**
 * Migrations renamed after they ran somewhere: old name → new name. Kysely
 * knows a migration only by the name recorded in `kysely_migration`, so a
 * database migrated under the old name would report it missing (and try to
 * run the new name again). Recording the new name first keeps such databases
 * working. A rename must keep the migration's place in the order.
 */
export const RENAMED_MIGRATIONS: Record<string, string> = {
  // Two migrations shared the timestamp 20261122000600.
  '20261122000600_proposal_search': '20261122000650_proposal_search',
}

async function applyRenames(db: Kysely<any>): Promise<void> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true })
  if (!tables.some((t) => t.name === 'kysely_migration')) return // a new database
  for (const [from, to] of Object.entries(RENAMED_MIGRATIONS)) {
    await db.updateTable('kysely_migration').set({ name: to }).where('name', '=', from).execute()
  }
}
