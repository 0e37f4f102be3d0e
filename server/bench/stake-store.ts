// Where the benchmark's stakes live: SQLite files in server/bench/.data/ and,
// when PostgreSQL answers, databases on that server. A stake is seeded once and
// reused while its marker (seed version, size, the schema's migrations) still
// matches and it is less than a week old (the board shows the last 30 days).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql, type Kysely } from 'kysely'
import pg from 'pg'
import { DEFAULT_TIMEOUTS, type Dialect } from '../src/db/database.ts'
import { createDatabase, type DatabaseOptions } from '../src/database.ts'
import { migrate } from '../src/db/migrate.ts'
import { PasswordHasher, type Argon2Params } from '../src/modules/auth/passwords.ts'
import { PASSWORD, type StakeSize } from './stake-data.ts'
import { seedStake } from './stake-seed.ts'
import { otherSize, seedOtherStakes } from './many-stakes.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
export const DATA_DIR = path.join(here, '.data')
const MIGRATIONS_DIR = path.join(here, '../src/db/migrations')
/** Bump when the generated data changes. */
const SEED_VERSION = 2
const MAX_AGE_MS = 7 * 86_400_000
const MARKER = 'bench_seed'

export const PG_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres'
/** The PostgreSQL databases' names start with this (another checkout benching on the same server picks its own). */
const PG_PREFIX = process.env.BENCH_PG_PREFIX || 'stake_bench'

/** The bench's own connections (seeding, clean-up) work in stake 1, the stake the scenarios measure. */
export const STAKE_ONE: DatabaseOptions = { fallbackScope: { stakeId: 1 } }

export interface Stake {
  dialect: Dialect
  name: string
  size: StakeSize
  url: string
  /** Other stakes in the same database (many-stakes.ts), after this one as stake 1. */
  others?: number
}

export function stakeUrl(dialect: Dialect, name: string): string {
  if (dialect === 'sqlite') return `sqlite:${path.join(DATA_DIR, `${name}.sqlite`)}`
  const url = new URL(PG_URL)
  url.pathname = `/${name === 'big' ? PG_PREFIX : `${PG_PREFIX}_${name}`}`
  return url.toString()
}

export async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    await client.query('select 1')
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

const migrationNames = () =>
  fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{14}_[\w-]+\.ts$/.test(f))
    .sort()

function wantedMarker(stake: Stake) {
  const others = stake.others ? { others: stake.others, otherSize: otherSize(stake.others + 1) } : {}
  return { version: SEED_VERSION, size: stake.size, ...others, migrations: migrationNames() }
}

/** True when the stake at `url` was seeded by this version of the seeder, at this size and schema, recently. */
async function seededAlready(stake: Stake): Promise<boolean> {
  if (stake.dialect === 'sqlite' && !fs.existsSync(stake.url.slice('sqlite:'.length))) return false
  const { db, close } = createDatabase(stake.url, STAKE_ONE)
  try {
    const row = await db.selectFrom('app_settings').select('value').where('key', '=', MARKER).executeTakeFirst()
    if (!row) return false
    const { seeded_at, ...marker } = JSON.parse(row.value) as { seeded_at: number }
    return JSON.stringify(marker) === JSON.stringify(wantedMarker(stake)) && Date.now() - seeded_at < MAX_AGE_MS
  } catch {
    return false // no such database, or not migrated
  } finally {
    await close()
  }
}

/** An empty database in place of whatever was there. */
async function recreate(stake: Stake) {
  if (stake.dialect === 'sqlite') {
    const file = stake.url.slice('sqlite:'.length)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true })
    return
  }
  const name = new URL(stake.url).pathname.slice(1)
  const admin = new pg.Client({ connectionString: PG_URL })
  await admin.connect()
  try {
    await admin.query(`drop database if exists ${name} with (force)`)
    await admin.query(`create database ${name}`)
  } finally {
    await admin.end()
  }
}

/** Makes sure the stake is there; seeds it when not. Says what it did. */
export async function ensureStake(stake: Stake, argon2: Argon2Params): Promise<string> {
  if (process.env.BENCH_RESEED !== '1' && (await seededAlready(stake))) return 'reused'
  const started = performance.now()
  await recreate(stake)
  // Bulk statements and VACUUM ANALYZE of a many-stakes database outlast the server's 5 s statement timeout.
  const timeouts = { ...DEFAULT_TIMEOUTS, statementTimeoutMs: 30 * 60_000 }
  const { db, dialect, close } = createDatabase(stake.url, { ...STAKE_ONE, timeouts })
  try {
    await migrate(db)
    const passwordHash = await new PasswordHasher(argon2).hash(PASSWORD)
    const counts = await seedStake(db, dialect, stake.size, passwordHash, { analyze: !stake.others })
    if (stake.others) {
      const others = await seedOtherStakes(db, dialect, stake.others, passwordHash)
      for (const [table, n] of Object.entries(others)) counts[`${table} (other stakes)`] = n
      // As stake-seed.ts does for one stake: what autovacuum would have done.
      if (dialect === 'postgres') await sql`vacuum analyze`.execute(db)
    }
    const marker = { ...wantedMarker(stake), seeded_at: Date.now() }
    await db
      .insertInto('app_settings')
      .values({ key: MARKER, value: JSON.stringify(marker) })
      .execute()
    // The seeded pages written out now, not by the checkpoint that the
    // seeding's WAL sets off: seen writing for 270 s, across a whole
    // many-stakes run that followed.
    if (dialect === 'postgres') await sql`checkpoint`.execute(db)
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    return `seeded in ${seconds} s, ${await sizeMb(stake, db)} MB (${Object.entries(counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')})`
  } finally {
    await close()
  }
}

/** The database's size on disk, in MB (SQLite: the file after a checkpoint; PostgreSQL: pg_database_size). */
export async function sizeMb(stake: Stake, db: Kysely<any>): Promise<string> {
  if (stake.dialect === 'postgres') {
    const { rows } = await sql<{ size: number }>`select pg_database_size(current_database()) as size`.execute(db)
    return (Number(rows[0]!.size) / 2 ** 20).toFixed(0)
  }
  await sql`pragma wal_checkpoint(truncate)`.execute(db)
  return (fs.statSync(stake.url.slice('sqlite:'.length)).size / 2 ** 20).toFixed(0)
}

/** The size on disk of the database at `stake.url`, in MB. */
export async function databaseSizeMb(stake: Stake): Promise<string> {
  const { db, close } = createDatabase(stake.url, STAKE_ONE)
  try {
    return await sizeMb(stake, db)
  } finally {
    await close()
  }
}

/**
 * The role the server connects as on PostgreSQL in the many-stakes section: not
 * a superuser and without BYPASSRLS, so row-level security holds it as in
 * production (docs/api-reference.md §14). Made when missing, granted as
 * server/scripts/test.mjs grants its test role; no password (the local
 * server's trust rule lets it in, as for the superuser).
 */
export const APP_ROLE = process.env.BENCH_PG_APP_ROLE || 'stake_bench_app'

/** `stake.url` as APP_ROLE, with the role made and granted on that database. */
export async function appRoleUrl(stake: Stake): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(APP_ROLE)) throw new Error(`BENCH_PG_APP_ROLE: not a plain role name: ${APP_ROLE}`)
  const admin = new pg.Client({ connectionString: stake.url })
  await admin.connect()
  try {
    const { rows } = await admin.query<{ super: boolean; bypass: boolean }>(
      'select rolsuper as super, rolbypassrls as bypass from pg_roles where rolname = $1',
      [APP_ROLE],
    )
    if (rows.length === 0) {
      await admin
        .query(`create role ${APP_ROLE} login nosuperuser nobypassrls nocreatedb nocreaterole`)
        .catch((error: { code?: string }) => {
          if (error.code !== '42710') throw error // made meanwhile by another run
        })
    } else if (rows[0]!.super || rows[0]!.bypass) {
      throw new Error(`${APP_ROLE} is a superuser or bypasses row-level security: not what production runs as`)
    }
    await admin.query(`grant usage on schema public to ${APP_ROLE}`)
    await admin.query(`grant select, insert, update, delete on all tables in schema public to ${APP_ROLE}`)
    await admin.query(`grant usage, select, update on all sequences in schema public to ${APP_ROLE}`)
  } finally {
    await admin.end()
  }
  const url = new URL(stake.url)
  url.username = APP_ROLE
  url.password = ''
  return url.toString()
}

/** Sessions and throttle rows left by earlier runs would only grow; every run starts without them. */
export async function clearSessions(url: string) {
  const { db, close } = createDatabase(url, STAKE_ONE)
  try {
    await db.deleteFrom('sessions').execute()
    await db.deleteFrom('login_throttle').execute()
  } finally {
    await close()
  }
}
