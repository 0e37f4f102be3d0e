import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import BetterSqlite3 from 'better-sqlite3'
import { pino } from 'pino'
import { parseConfig } from '../../config.ts'
import { createDatabase } from '../../database.ts'
import { migrate } from '../../db/migrate.ts'
import { TestClock } from '../../test/harness.ts'
import { dailyJob } from '../notifications/daily.ts'
import { BackupError, backupBeforeMigrate, dailyBackup, findPgTool, pruneBackups, takeBackup } from './backup.ts'

// Files only: these run the same on both dialects' runs (the PostgreSQL paths are in backup.processes.test.ts).
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-backup-unit-'))
after(() => fs.rmSync(dir, { recursive: true, force: true }))

function sqliteFileWith(name: string, statements: string): string {
  const file = path.join(dir, name)
  const db = new BetterSqlite3(file)
  db.exec(statements)
  db.close()
  return file
}

function stamp(day: number): string {
  return `stake-2026-11-${String(day).padStart(2, '0')}T07-00-00-000Z.sqlite`
}

describe('pruneBackups (BACKUP_KEEP)', () => {
  it('keeps exactly the newest N backups and leaves other files alone', () => {
    const backups = fs.mkdtempSync(path.join(dir, 'prune-'))
    for (let day = 1; day <= 20; day++) fs.writeFileSync(path.join(backups, stamp(day)), '')
    fs.writeFileSync(path.join(backups, 'stake-2026-11-21T07-00-00-000Z-pre-migrate.sqlite'), '')
    fs.writeFileSync(path.join(backups, 'notes.txt'), '')
    fs.writeFileSync(path.join(backups, `${stamp(22)}.partial`), '')

    const deleted = pruneBackups(backups, 14)
    assert.equal(deleted.length, 7)
    const left = fs.readdirSync(backups).sort()
    const kept = left.filter((n) => /\.(sqlite|dump)$/.test(n))
    assert.equal(kept.length, 14)
    assert.ok(kept.includes('stake-2026-11-21T07-00-00-000Z-pre-migrate.sqlite'))
    assert.ok(kept.includes(stamp(20)) && kept.includes(stamp(8)) && !kept.includes(stamp(7)))
    assert.ok(left.includes('notes.txt') && left.includes(`${stamp(22)}.partial`))
  })

  it('deletes nothing when there are N or fewer, or no directory', () => {
    const backups = fs.mkdtempSync(path.join(dir, 'few-'))
    for (let day = 1; day <= 3; day++) fs.writeFileSync(path.join(backups, stamp(day)), '')
    assert.deepEqual(pruneBackups(backups, 3), [])
    assert.equal(fs.readdirSync(backups).length, 3)
    assert.deepEqual(pruneBackups(path.join(dir, 'missing'), 3), [])
  })
})

describe('takeBackup and dailyBackup (SQLite file)', () => {
  it('writes a self-contained copy into BACKUP_DIR; the daily backup keeps the newest BACKUP_KEEP', async () => {
    const file = sqliteFileWith('daily.db', `PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (42)`)
    const backupDir = path.join(dir, 'daily')
    const config = { databaseUrl: `sqlite:${file}`, backupDir, backupKeep: 2 }
    const first = await takeBackup(config)
    assert.equal(path.dirname(first), backupDir)
    const copy = new BetterSqlite3(first, { readonly: true })
    assert.deepEqual(copy.prepare('SELECT x FROM t').all(), [{ x: 42 }])
    assert.equal(copy.pragma('journal_mode', { simple: true }), 'delete')
    copy.close()

    const logged: string[] = []
    const log = { info: (_: object, m: string) => logged.push(m), error: (_: object, m: string) => logged.push(m) }
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 5)) // distinct millisecond names
      await dailyBackup(config, log)
    }
    assert.deepEqual(logged, ['daily backup done', 'daily backup done', 'daily backup done'])
    assert.equal(fs.readdirSync(backupDir).length, 2)
  })

  it('a failed daily backup is logged, not thrown (the other daily jobs are done)', async () => {
    const logged: string[] = []
    const log = { info: (_: object, m: string) => logged.push(m), error: (_: object, m: string) => logged.push(m) }
    await dailyBackup({ databaseUrl: 'sqlite::memory:', backupDir: path.join(dir, 'none'), backupKeep: 2 }, log)
    assert.deepEqual(logged, ['daily backup failed'])
  })
})

describe('the daily jobs in the server', () => {
  it("take one backup a day into BACKUP_DIR, after the day's jobs ran", async () => {
    const file = path.join(dir, 'served.db')
    const config = parseConfig({
      DATABASE_URL: `sqlite:${file}`,
      BACKUP_DIR: path.join(dir, 'served-backups'),
      STAKE_TIMEZONE: 'UTC',
      DAILY_HOUR: '0',
    })
    const database = createDatabase(config.databaseUrl, { fallbackScope: { stakeId: 1 } })
    try {
      await migrate(database.db)
      const deps = { db: database.db, dialect: database.dialect, clock: new TestClock(), config }
      for (let run = 0; run < 2; run++) {
        await dailyJob({ ...deps, log: pino({ level: 'silent' }) }).run()
      }
    } finally {
      await database.close()
    }
    const taken = fs.readdirSync(config.backupDir)
    assert.equal(taken.length, 1, 'the second check the same day finds the day done')
    assert.match(taken[0]!, /^stake-.*\.sqlite$/)
  })
})

describe('backupBeforeMigrate', () => {
  const backupDir = path.join(dir, 'pre')

  it('copies a database with tables and pending migrations, labelled pre-migrate', async () => {
    const file = sqliteFileWith('old.db', `CREATE TABLE legacy (x); INSERT INTO legacy VALUES (1)`)
    const database = createDatabase(`sqlite:${file}`, { fallbackScope: { stakeId: 1 } })
    try {
      const copy = await backupBeforeMigrate({ databaseUrl: `sqlite:${file}`, backupDir }, database.db, 'sqlite')
      assert.match(copy!, /-pre-migrate\.sqlite$/)
      const opened = new BetterSqlite3(copy!, { readonly: true })
      assert.deepEqual(opened.prepare('SELECT x FROM legacy').all(), [{ x: 1 }])
      opened.close()
    } finally {
      await database.close()
    }
  })

  it('takes no copy of a new (empty) database, of an up-to-date one, or on PostgreSQL', async () => {
    const file = path.join(dir, 'new.db')
    const config = { databaseUrl: `sqlite:${file}`, backupDir: path.join(dir, 'pre-none') }
    const database = createDatabase(config.databaseUrl, { fallbackScope: { stakeId: 1 } })
    try {
      assert.equal(await backupBeforeMigrate(config, database.db, 'sqlite'), null)
      await migrate(database.db)
      assert.equal(await backupBeforeMigrate(config, database.db, 'sqlite'), null)
      assert.equal(await backupBeforeMigrate(config, database.db, 'postgres'), null)
    } finally {
      await database.close()
    }
    assert.ok(!fs.existsSync(config.backupDir))
  })
})

describe('findPgTool', () => {
  it('finds pg_dump on PATH, then in /usr/lib/postgresql/<newest>/bin', () => {
    const root = fs.mkdtempSync(path.join(dir, 'pg-'))
    for (const version of ['9', '15', '16']) {
      fs.mkdirSync(path.join(root, version, 'bin'), { recursive: true })
      fs.writeFileSync(path.join(root, version, 'bin', 'pg_dump'), '', { mode: 0o755 })
    }
    assert.equal(findPgTool('pg_dump', { path: '', roots: [root] }), path.join(root, '16', 'bin', 'pg_dump'))
    assert.equal(
      findPgTool('pg_dump', { path: path.join(root, '9', 'bin'), roots: [root] }),
      path.join(root, '9', 'bin', 'pg_dump'),
    )
  })

  it('says clearly what to install when pg_dump is missing', () => {
    assert.throws(
      () => findPgTool('pg_dump', { path: path.join(dir, 'nowhere'), roots: [path.join(dir, 'nowhere')] }),
      (e: Error) =>
        e instanceof BackupError && /pg_dump was not found/.test(e.message) && /postgresql-client/.test(e.message),
    )
  })
})
