import { blankDatabase as emptyDatabase } from '../test/blank-database.ts'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, it } from 'node:test'
import { Migrator, type Kysely, type Migration } from 'kysely'
import { migrate, RENAMED_MIGRATIONS } from './migrate.ts'

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations')
const currentNames = fs
  .readdirSync(MIGRATIONS_DIR)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort()
const oldNameOf = Object.fromEntries(Object.entries(RENAMED_MIGRATIONS).map(([from, to]) => [to, from]))

const blankDatabase = async () => (await emptyDatabase({ fallbackScope: { stakeId: 1 } })).database

/** The migrations as an older checkout had them: only those before `before`, under their names of then. */
async function migrateAsBefore(db: Kysely<any>, before: string): Promise<void> {
  const provider = {
    async getMigrations() {
      const migrations: Record<string, Migration> = {}
      for (const name of currentNames.filter((n) => n < before)) {
        migrations[oldNameOf[name] ?? name] = await import(pathToFileURL(path.join(MIGRATIONS_DIR, `${name}.ts`)).href)
      }
      return migrations
    },
  }
  const { error } = await new Migrator({ db: db.withoutPlugins(), provider }).migrateToLatest()
  if (error) throw error
}

const recorded = async (db: Kysely<any>) =>
  (await db.selectFrom('kysely_migration').select('name').orderBy('name').execute()).map((r) => r.name)

describe('migrate', () => {
  it('has no two migrations with the same timestamp', () => {
    const stamps = currentNames.map((n) => n.slice(0, 14))
    assert.equal(new Set(stamps).size, stamps.length)
  })

  it('migrates a database that ran a renamed migration under its old name, without running it again', async () => {
    const database = await blankDatabase()
    try {
      await migrateAsBefore(database.db, '20261123')
      assert.ok((await recorded(database.db)).includes('20261122000600_proposal_search'))

      const ran = await migrate(database.db)

      // Only what the old checkout lacked ran; the renamed one would fail if run twice (its column exists).
      assert.deepEqual(
        ran,
        currentNames.filter((n) => n >= '20261123'),
      )
      assert.deepEqual(await recorded(database.db), currentNames)
      assert.deepEqual(await migrate(database.db), [], 'a second run has nothing to do')
    } finally {
      await database.close()
    }
  })

  it('records the new names on a new database', async () => {
    const database = await blankDatabase()
    try {
      assert.deepEqual(await migrate(database.db), currentNames)
      assert.deepEqual(await recorded(database.db), currentNames)
    } finally {
      await database.close()
    }
  })
})
