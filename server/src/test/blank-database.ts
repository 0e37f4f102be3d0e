import crypto from 'node:crypto'
import { after } from 'node:test'
import pg from 'pg'
import type { Database } from '../db/database.ts'
import { createDatabase, type DatabaseOptions } from '../database.ts'
import { dialect } from './harness.ts'

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
  return { database: createDatabase(url.toString(), options), url: url.toString() }
}
