import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely'

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

/** Every `<yyyymmddhhmmss>_<name>.ts` file in db/migrations, in name order. */
const provider: MigrationProvider = {
  async getMigrations() {
    const migrations: Record<string, Migration> = {}
    const files = fs.readdirSync(MIGRATIONS_DIR).filter((f) => /^\d{14}_[\w-]+\.ts$/.test(f)).sort()
    for (const file of files) {
      migrations[file.replace(/\.ts$/, '')] = await import(pathToFileURL(path.join(MIGRATIONS_DIR, file)).href)
    }
    return migrations
  },
}

/**
 * Brings the schema up to date. Used by start-up, the CLI and the tests alike.
 * Migrations are forward-only: a merged migration is never edited and there is
 * no down().
 */
export async function migrate(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
