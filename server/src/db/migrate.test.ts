import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { after, describe, it } from 'node:test'
import { Migrator, type Kysely, type Migration } from 'kysely'
import pg from 'pg'
import { createDatabase, type Database } from './database.ts'
import { migrate, RENAMED_MIGRATIONS } from './migrate.ts'
import { dialect } from '../test/harness.ts'

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations')
const currentNames = fs
  .readdirSync(MIGRATIONS_DIR)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort()
const oldNameOf = Object.fromEntries(Object.entries(RENAMED_MIGRATIONS).map(([from, to]) => [to, from]))

/** An empty database (no migrations run): in memory, or a new PostgreSQL database dropped afterwards. */
async function blankDatabase(): Promise<Database> {
  if (dialect === 'sqlite') return createDatabase('sqlite::memory:', { fallbackScope: { stakeId: 1 } })
  const adminUrl = process.env.TEST_PG_URL
  const template = process.env.TEST_PG_TEMPLATE
  if (!adminUrl || !template) throw new Error('TEST_PG_URL and TEST_PG_TEMPLATE are set by scripts/test.mjs')
  // Named like the harness's databases, so scripts/test.mjs drops it if this file crashes.
  const name = `${template}_f_${crypto.randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  after(async () => {
    const client = new pg.Client({ connectionString: adminUrl })
    await client.connect()
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await client.end()
  })
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return createDatabase(url.toString(), { fallbackScope: { stakeId: 1 } })
}

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
