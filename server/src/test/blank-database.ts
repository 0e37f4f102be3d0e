import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { after } from 'node:test'
import { pathToFileURL } from 'node:url'
import { Migrator, type Kysely, type Migration } from 'kysely'
import type { Database } from '../db/database.ts'
import type { DB } from '../db/schema.ts'
import { createDatabase, type DatabaseOptions } from '../database.ts'
import { dialect, pgAdmin } from './harness.ts'

/**
 * An empty database (no migrations run): SQLite in memory, or a new
 * PostgreSQL database dropped after the file's tests. `url` opens a second
 * connection to it (PostgreSQL only; null for SQLite in memory).
 */
export async function blankDatabase(
  options: DatabaseOptions = {},
): Promise<{ database: Database; url: string | null }> {
  if (dialect === 'sqlite') return { database: createDatabase('sqlite::memory:', options), url: null }
  const adminUrl = process.env.TEST_PG_URL
  const template = process.env.TEST_PG_TEMPLATE
  if (!adminUrl || !template) throw new Error('TEST_PG_URL and TEST_PG_TEMPLATE are set by scripts/test.mjs')
  // Named like the harness's databases, so scripts/test.mjs drops it if the file crashes.
  const name = `${template}_f_${crypto.randomBytes(6).toString('hex')}`
  await pgAdmin(`CREATE DATABASE ${name}`)
  after(() => pgAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return { database: createDatabase(url.toString(), options), url: url.toString() }
}

const MIGRATIONS_DIR = path.join(import.meta.dirname, '../db/migrations')

/** Runs the migrations before `before` (as migrate.test.ts's migrateAsBefore, without renamed names: none before the stakes). */
export async function migrateUpTo(db: Kysely<DB>, before: string): Promise<void> {
  const names = fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.replace(/\.ts$/, ''))
    .filter((n) => n < before)
    .sort()
  const provider = {
    async getMigrations() {
      const migrations: Record<string, Migration> = {}
      for (const name of names)
        migrations[name] = await import(pathToFileURL(path.join(MIGRATIONS_DIR, `${name}.ts`)).href)
      return migrations
    },
  }
  const { error } = await new Migrator({ db, provider }).migrateToLatest()
  if (error) throw error
}
