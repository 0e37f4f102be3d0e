// Where the benchmark's stakes live: SQLite files in server/bench/.data/ and,
// when PostgreSQL answers, databases on that server. A stake is seeded once and
// reused while its marker (seed version, size, the schema's migrations) still
// matches and it is less than a week old (the board shows the last 30 days).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { createDatabase, type DatabaseOptions, type Dialect } from '../src/db/database.ts'
import { migrate } from '../src/db/migrate.ts'
import { PasswordHasher, type Argon2Params } from '../src/modules/auth/passwords.ts'
import { PASSWORD, type StakeSize } from './stake-data.ts'
import { seedStake } from './stake-seed.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
export const DATA_DIR = path.join(here, '.data')
const MIGRATIONS_DIR = path.join(here, '../src/db/migrations')
/** Bump when the generated data changes. */
const SEED_VERSION = 2
const MAX_AGE_MS = 7 * 86_400_000
const MARKER = 'bench_seed'

export const PG_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres'

/** The bench's own connections (seeding, clean-up) work in stake 1, the stake the scenarios measure. */
export const STAKE_ONE: DatabaseOptions = { fallbackScope: { stakeId: 1 } }

export interface Stake {
  dialect: Dialect
  name: string
  size: StakeSize
  url: string
}

export function stakeUrl(dialect: Dialect, name: string): string {
  if (dialect === 'sqlite') return `sqlite:${path.join(DATA_DIR, `${name}.sqlite`)}`
  const url = new URL(PG_URL)
  url.pathname = `/${name === 'big' ? 'stake_bench' : `stake_bench_${name}`}`
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

function wantedMarker(size: StakeSize) {
  return { version: SEED_VERSION, size, migrations: migrationNames() }
}

/** True when the stake at `url` was seeded by this version of the seeder, at this size and schema, recently. */
async function seededAlready(stake: Stake): Promise<boolean> {
  if (stake.dialect === 'sqlite' && !fs.existsSync(stake.url.slice('sqlite:'.length))) return false
  const { db, close } = createDatabase(stake.url, STAKE_ONE)
  try {
    const row = await db.selectFrom('app_settings').select('value').where('key', '=', MARKER).executeTakeFirst()
    if (!row) return false
    const { seeded_at, ...marker } = JSON.parse(row.value) as { seeded_at: number }
    return JSON.stringify(marker) === JSON.stringify(wantedMarker(stake.size)) && Date.now() - seeded_at < MAX_AGE_MS
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
  const { db, dialect, close } = createDatabase(stake.url, STAKE_ONE)
  try {
    await migrate(db)
    const passwordHash = await new PasswordHasher(argon2).hash(PASSWORD)
    const counts = await seedStake(db, dialect, stake.size, passwordHash)
    const marker = { ...wantedMarker(stake.size), seeded_at: Date.now() }
    await db
      .insertInto('app_settings')
      .values({ key: MARKER, value: JSON.stringify(marker) })
      .execute()
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    return `seeded in ${seconds} s (${Object.entries(counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')})`
  } finally {
    await close()
  }
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
