import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { after, before, describe, it } from 'node:test'
import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'
import { dialect } from '../../test/harness.ts'
import {
  ADMIN_PASSWORD,
  CHOSEN_PASSWORD,
  adminToken,
  createWard,
  request,
  startServer,
  type ServerProcess,
} from '../../test/process.ts'

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../cli.ts')
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-backup-'))
const databases: string[] = []

/** `npm run cli -- ...` as a process; its exit code and output. */
function runCli(url: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
      env: { ...process.env, DATABASE_URL: url },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** An empty database: a SQLite file not yet created, or an empty PostgreSQL database (or the run's template's clone). */
async function newDatabase(migrated: boolean): Promise<string> {
  if (dialect === 'sqlite') {
    const url = `sqlite:${path.join(dir, `${crypto.randomBytes(6).toString('hex')}.db`)}`
    if (migrated) assert.equal((await runCli(url, ['migrate'])).code, 0)
    return url
  }
  const adminUrl = process.env.TEST_PG_URL!
  const name = `${process.env.TEST_PG_TEMPLATE}_f_${crypto.randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}${migrated ? ` TEMPLATE ${process.env.TEST_PG_TEMPLATE}` : ''}`)
  await admin.end()
  databases.push(name)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/** One statement on the database at `url` (SQLite file or PostgreSQL), with a fresh connection. */
async function query<T>(url: string, text: string): Promise<T[]> {
  if (dialect === 'sqlite') {
    const db = new BetterSqlite3(url.slice('sqlite:'.length))
    try {
      const statement = db.prepare(text)
      return (statement.reader ? statement.all() : (statement.run(), [])) as T[]
    } finally {
      db.close()
    }
  }
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(text)).rows as T[]
  } finally {
    await client.end()
  }
}

async function wardNames(base: string): Promise<Set<string>> {
  const res = await request(`${base}/api/wards`)
  assert.equal(res.status, 200)
  return new Set(((await res.json()) as { name: string }[]).map((w) => w.name))
}

/** The administrator's token (password already changed by adminToken), or null when sign-in fails. */
async function signIn(base: string): Promise<string | null> {
  const res = await request(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: 'admin@example.com', password: CHOSEN_PASSWORD }).toString(),
  })
  return res.status === 200 ? ((await res.json()) as { access_token: string }).access_token : null
}

after(async () => {
  if (dialect === 'postgres') {
    const admin = new pg.Client({ connectionString: process.env.TEST_PG_URL! })
    await admin.connect()
    for (const name of databases) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.end()
  }
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('backup and restore through the CLI, beside a running server', () => {
  let source: string
  let server: ServerProcess
  let restoredServer: ServerProcess | undefined
  let backup: string

  before(async () => {
    source = await newDatabase(false)
    server = await startServer({ DATABASE_URL: source, INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD })
  })
  after(async () => {
    await server?.kill()
    await restoredServer?.kill()
  })

  it('a backup taken while 16 clients write restores every write acknowledged before it began, intact, and serves', async () => {
    const token = await adminToken(server.base)
    const acknowledged: string[] = []
    let writing = true
    const writers = Array.from({ length: 16 }, async (_, w) => {
      for (let n = 0; writing; n++) {
        const name = `Backup Ward ${w}-${n}`
        const res = await createWard(server.base, token, name)
        await res.text()
        if (res.status === 201) acknowledged.push(name)
      }
    })
    while (acknowledged.length < 48) await new Promise((r) => setTimeout(r, 20))

    const before = [...acknowledged] // acknowledged before the backup began
    const taken = await runCli(source, ['backup', '--out', path.join(dir, 'backups')])
    writing = false
    await Promise.all(writers)
    assert.equal(taken.code, 0, taken.stderr)
    backup = taken.stdout.trim()
    assert.ok(fs.existsSync(backup), `the printed path exists: ${backup}`)
    assert.ok(acknowledged.length > before.length, 'writes went on while the backup ran')

    const target = await newDatabase(false)
    const restored = await runCli(target, ['restore', backup, '--yes'])
    assert.equal(restored.code, 0, restored.stderr)
    if (dialect === 'sqlite') {
      const [check] = await query<{ integrity_check: string }>(target, 'PRAGMA integrity_check')
      assert.equal(check!.integrity_check, 'ok')
    }
    const rows = await query<{ name: string }>(target, 'SELECT name FROM wards')
    const names = new Set(rows.map((r) => r.name))
    assert.deepEqual(
      before.filter((name) => !names.has(name)),
      [],
      'every acknowledged write is in the restored database',
    )

    restoredServer = await startServer({ DATABASE_URL: target })
    const served = await wardNames(restoredServer.base)
    assert.ok(before.every((name) => served.has(name)))
    assert.ok(await signIn(restoredServer.base), 'the restored users sign in')
  })

  it('restore refuses while a server uses the database (exit 1), and leaves it as it was', async () => {
    const beforeRestore = await wardNames(server.base)
    const refused = await runCli(source, ['restore', backup, '--yes'])
    assert.equal(refused.code, 1)
    assert.match(refused.stderr, /in use/)
    assert.deepEqual(await wardNames(server.base), beforeRestore)
    // The server still writes to its database (nothing was swapped under it).
    const token = (await signIn(server.base))!
    assert.equal((await createWard(server.base, token, 'After The Refused Restore')).status, 201)
    assert.ok((await wardNames(server.base)).has('After The Refused Restore'))
  })

  it('restore without --yes refuses (exit 1) and names the flag', async () => {
    const target = await newDatabase(false)
    const refused = await runCli(target, ['restore', backup])
    assert.equal(refused.code, 1)
    assert.match(refused.stderr, /--yes/)
  })
})

describe('restore refuses a backup from a newer schema', () => {
  it('exits 1 naming both migrations, and leaves the target database untouched', async () => {
    const future = await newDatabase(true)
    await query(
      future,
      `INSERT INTO kysely_migration (name, timestamp) VALUES ('99991231235959_from_the_future', '2026-11-27T00:00:00.000Z')`,
    )
    const taken = await runCli(future, ['backup', '--out', path.join(dir, 'future')])
    assert.equal(taken.code, 0, taken.stderr)

    const target = await newDatabase(true)
    await query(target, 'CREATE TABLE restore_marker (x integer)')
    const refused = await runCli(target, ['restore', taken.stdout.trim(), '--yes'])
    assert.equal(refused.code, 1)
    assert.match(refused.stderr, /newer than this code/)
    assert.match(refused.stderr, /99991231235959_from_the_future/)
    assert.deepEqual(await query(target, 'SELECT x FROM restore_marker'), [], 'the target was not replaced')
    const history = await query<{ name: string }>(target, 'SELECT name FROM kysely_migration')
    assert.ok(!history.some((r) => r.name.startsWith('9999')))
  })
})

describe('start-up backs up a non-empty SQLite database before migrating it', { skip: dialect !== 'sqlite' }, () => {
  it('writes a -pre-migrate copy of the database as it was into BACKUP_DIR, and logs its path', async () => {
    const file = path.join(dir, 'legacy.db')
    const legacy = new BetterSqlite3(file)
    legacy.exec(`CREATE TABLE legacy_notes (note TEXT); INSERT INTO legacy_notes VALUES ('kept')`)
    legacy.close()
    const backups = path.join(dir, 'pre-migrate')
    const started = await startServer({ DATABASE_URL: `sqlite:${file}`, BACKUP_DIR: backups })
    try {
      // Only the pre-migrate copy counts: from DAILY_HOUR on, the server's daily jobs take
      // their own backup into the same directory as soon as it starts.
      const files = fs.readdirSync(backups).filter((name) => name.includes('-pre-migrate'))
      assert.equal(files.length, 1, fs.readdirSync(backups).join(', '))
      assert.match(files[0]!, /-pre-migrate\.sqlite$/)
      assert.ok(started.output().includes(path.join(backups, files[0]!)), 'the path is logged')
      const copy = new BetterSqlite3(path.join(backups, files[0]!), { readonly: true })
      try {
        assert.deepEqual(copy.prepare('SELECT note FROM legacy_notes').all(), [{ note: 'kept' }])
        const tables = copy.prepare(`SELECT name FROM sqlite_master WHERE name = 'users'`).all()
        assert.deepEqual(tables, [], 'the copy is from before the migrations')
      } finally {
        copy.close()
      }
    } finally {
      await started.kill()
    }
    // Migrated now: the next start has nothing pending and takes no copy.
    const again = await startServer({ DATABASE_URL: `sqlite:${file}`, BACKUP_DIR: backups })
    await again.kill()
    assert.equal(fs.readdirSync(backups).filter((name) => name.includes('-pre-migrate')).length, 1)
  })
})
