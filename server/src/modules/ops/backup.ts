import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'
import { sql, type Kysely } from 'kysely'
import type { Config } from '../../config.ts'
import type { Dialect } from '../../db/database.ts'
import type { DB } from '../../db/schema.ts'
import { migrationNames, RENAMED_MIGRATIONS } from '../../db/migrate.ts'

/**
 * Backups and restore (README "Backups and restore", docs/decisions.md
 * "Backups"). SQLite is copied with the online backup API while the server
 * runs; PostgreSQL with `pg_dump --format=custom`. Restore replaces the whole
 * database and refuses while a server uses it or when the backup's schema is
 * newer than this code.
 */

export type BackupConfig = Pick<Config, 'databaseUrl' | 'backupDir'>

/** A refusal or failure the CLI prints as one line (no stack). */
export class BackupError extends Error {}

/** `stake-<UTC time>[-label].sqlite|.dump`: sorts by time; only these files are pruned. */
const BACKUP_NAME = /^stake-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z(-[a-z-]+)?\.(sqlite|dump)$/

function dialectOfUrl(url: string): Dialect {
  return url.startsWith('sqlite:') ? 'sqlite' : 'postgres'
}

function sqliteFile(url: string): string {
  const file = url.slice('sqlite:'.length)
  if (!file || file === ':memory:')
    throw new BackupError('an in-memory SQLite database cannot be backed up or restored')
  return path.resolve(file)
}

function backupName(dialect: Dialect, label?: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  return `stake-${stamp}${label ? `-${label}` : ''}.${dialect === 'sqlite' ? 'sqlite' : 'dump'}`
}

/**
 * Writes a consistent copy of the database into `out` (default BACKUP_DIR)
 * and returns its path. The copy is written under a temporary name and
 * renamed when complete, so a listed backup is never half written.
 */
export async function takeBackup(
  config: BackupConfig,
  options: { out?: string; label?: string } = {},
): Promise<string> {
  const dialect = dialectOfUrl(config.databaseUrl)
  const dir = path.resolve(options.out ?? config.backupDir)
  fs.mkdirSync(dir, { recursive: true })
  const target = path.join(dir, backupName(dialect, options.label))
  const partial = `${target}.partial`
  try {
    if (dialect === 'sqlite') await sqliteBackup(sqliteFile(config.databaseUrl), partial)
    else {
      const url = config.databaseUrl
      // Row-level security (docs/api-reference.md §14) stays on for the server's own role, set to every stake.
      await run(
        findPgTool('pg_dump'),
        ['--format=custom', '--enable-row-security', `--file=${partial}`, ...pgTarget(url)],
        url,
      )
    }
    fs.renameSync(partial, target)
  } finally {
    fs.rmSync(partial, { force: true })
  }
  return target
}

/** Pages copied per step: the event loop runs between steps. */
const STEP_PAGES = 1000

/**
 * The online backup API copies a snapshot in steps. A write by another
 * connection between two steps restarts the copy; under steady writes it
 * could restart forever, so after a restart the rest is copied in one step
 * (one read transaction, which in WAL mode does not block writers).
 */
async function sqliteBackup(file: string, destination: string): Promise<void> {
  if (!fs.existsSync(file)) throw new BackupError(`no database at ${file}`)
  const source = new BetterSqlite3(file, { fileMustExist: true })
  try {
    let lastRemaining = Infinity
    let restarted = false
    await source.backup(destination, {
      progress({ totalPages, remainingPages }) {
        if (remainingPages > lastRemaining) restarted = true
        lastRemaining = remainingPages
        return restarted ? totalPages : STEP_PAGES
      },
    })
  } finally {
    source.close()
  }
  // The copy keeps the source's WAL flag; a rollback-journal file is one self-contained file,
  // and opening it (to inspect or restore) leaves no -wal/-shm beside the backups.
  const copy = new BetterSqlite3(destination, { fileMustExist: true })
  try {
    copy.pragma('journal_mode = DELETE')
  } finally {
    copy.close()
  }
}

/** Deletes all but the newest `keep` backups in `dir` (other files are left alone); returns the deleted names. */
export function pruneBackups(dir: string, keep: number): string[] {
  if (!fs.existsSync(dir)) return []
  const backups = fs
    .readdirSync(dir)
    .filter((name) => BACKUP_NAME.test(name))
    .sort()
    .reverse()
  const old = backups.slice(keep)
  for (const name of old) fs.rmSync(path.join(dir, name), { force: true })
  return old
}

/** The daily jobs' backup: one copy, then only the newest BACKUP_KEEP are kept. */
export async function dailyBackup(
  config: Pick<Config, 'databaseUrl' | 'backupDir' | 'backupKeep'>,
  log: { info(o: object, m: string): void; error(o: object, m: string): void },
): Promise<void> {
  try {
    const file = await takeBackup(config)
    const pruned = pruneBackups(config.backupDir, config.backupKeep)
    log.info({ backup: file, pruned: pruned.length }, 'daily backup done')
  } catch (error) {
    log.error({ err: error }, 'daily backup failed')
  }
}

/**
 * Before start-up migrates a SQLite database that already has tables, a copy
 * of it as it was (a failed or unwanted migration then has something to go
 * back to). Returns the backup's path, or null when nothing was pending or
 * the database is new or not SQLite.
 */
export async function backupBeforeMigrate(
  config: BackupConfig,
  db: Kysely<DB>,
  dialect: Dialect,
): Promise<string | null> {
  if (dialect !== 'sqlite' || config.databaseUrl === 'sqlite::memory:' || config.databaseUrl === 'sqlite:') return null
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true })
  if (tables.length === 0) return null
  const history = tables.some((t) => t.name === 'kysely_migration')
    ? (await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db)).rows
    : []
  const applied = new Set(history.map((r) => RENAMED_MIGRATIONS[r.name] ?? r.name))
  const pending = (await migrationNames()).filter((name) => !applied.has(name))
  if (pending.length === 0) return null
  return takeBackup(config, { label: 'pre-migrate' })
}

// ---------------------------------------------------------------- restore

/**
 * Replaces the database at DATABASE_URL with the backup `file`. Refuses when
 * a server uses the database, when the backup fails its integrity check, and
 * when its newest migration is later than the newest this code knows.
 */
async function restoreBackup(config: Pick<Config, 'databaseUrl'>, file: string): Promise<void> {
  const source = path.resolve(file)
  if (!fs.existsSync(source) || !fs.statSync(source).isFile()) throw new BackupError(`no backup file at ${source}`)
  if (dialectOfUrl(config.databaseUrl) === 'sqlite') await restoreSqlite(sqliteFile(config.databaseUrl), source)
  else await restorePostgres(config.databaseUrl, source)
}

/** The backup's schema must not be newer than the code (restore would leave tables the code does not know). */
async function checkSchema(names: string[]): Promise<void> {
  const newestInBackup = names
    .map((n) => RENAMED_MIGRATIONS[n] ?? n)
    .sort()
    .at(-1)
  if (newestInBackup === undefined)
    throw new BackupError('the backup has no migration history: not a backup of this service')
  const newestKnown = (await migrationNames()).at(-1)!
  if (newestInBackup > newestKnown) {
    throw new BackupError(
      `the backup's schema is newer than this code (its newest migration ${newestInBackup}, ours ${newestKnown}): ` +
        'restore it with the version of the service that wrote it',
    )
  }
}

/**
 * SQLite: is another connection open on `file`? Every connection to a WAL
 * database keeps a shared lock while it is open, even when idle, so an
 * exclusive lock taken without waiting succeeds only when no server (or other
 * process) has the database open (docs/decisions.md "Backups").
 */
function assertSqliteUnused(file: string): void {
  if (!fs.existsSync(file)) return
  const probe = new BetterSqlite3(file, { timeout: 0 })
  try {
    probe.pragma('locking_mode = EXCLUSIVE')
    probe.exec('BEGIN EXCLUSIVE')
    probe.exec('COMMIT')
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
      throw new BackupError(`the database ${file} is in use (a server is running on it?): stop it first`)
    }
    throw error
  } finally {
    probe.close() // the last connection: checkpoints and removes the -wal and -shm
  }
}

function removeSidecars(file: string): void {
  for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(`${file}${suffix}`, { force: true })
}

async function restoreSqlite(target: string, source: string): Promise<void> {
  assertSqliteUnused(target)
  fs.mkdirSync(path.dirname(target), { recursive: true })
  // Beside the target, so the final rename is atomic (one file system).
  const temporary = `${target}.restore-${process.pid}.tmp`
  try {
    fs.copyFileSync(source, temporary)
    let copy: BetterSqlite3.Database
    try {
      copy = new BetterSqlite3(temporary, { fileMustExist: true })
      const result = copy.pragma('integrity_check', { simple: true })
      if (result !== 'ok') throw new BackupError(`the backup fails its integrity check: ${String(result)}`)
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_NOTADB')
        throw new BackupError(`${source} is not a SQLite backup`)
      throw error
    }
    try {
      const hasHistory = copy
        .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'`)
        .get()
      const names = hasHistory
        ? (copy.prepare('SELECT name FROM kysely_migration').all() as { name: string }[]).map((r) => r.name)
        : []
      await checkSchema(names)
    } finally {
      copy.close()
    }
    removeSidecars(temporary)
    // Checked again just before the swap: a server started meanwhile keeps the old file open.
    assertSqliteUnused(target)
    // Stale -wal/-shm of the old file would be read as part of the new one.
    removeSidecars(target)
    fs.renameSync(temporary, target)
  } finally {
    fs.rmSync(temporary, { force: true })
    removeSidecars(temporary)
  }
}

/**
 * PostgreSQL: the archive is read first (its table of contents and its
 * migration history), the target is checked for other connections, then the
 * public schema is replaced by the backup's in one pg_restore transaction.
 */
async function restorePostgres(url: string, source: string): Promise<void> {
  const pgRestore = findPgTool('pg_restore')
  try {
    await run(pgRestore, ['--list', source])
  } catch {
    throw new BackupError(`${source} is not a pg_dump custom-format backup`)
  }
  const history = await run(pgRestore, ['--data-only', '--table=kysely_migration', '--file=-', source])
  await checkSchema(copyRows(history).map((row) => row[0]!))

  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    // Other sessions on this database (a server's pool, a psql): restore would pull the tables from under them.
    const others = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    )
    if (others.rows[0]!.n > 0) {
      throw new BackupError(
        `the database is in use (${others.rows[0]!.n} other connection(s); a server is running on it?): stop it first`,
      )
    }
    // Restoring writes every stake's rows past row-level security, which only such a role may do.
    const role = await client.query<{ bypass: boolean }>(
      'SELECT rolsuper OR rolbypassrls AS bypass FROM pg_roles WHERE rolname = current_user',
    )
    if (!role.rows[0]?.bypass) {
      throw new BackupError(
        'restoring needs a role that bypasses row-level security (a superuser such as postgres, or one with BYPASSRLS): ' +
          'run restore with DATABASE_URL naming that role',
      )
    }
    await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public')
  } finally {
    await client.end()
  }
  await run(
    pgRestore,
    ['--single-transaction', '--exit-on-error', '--no-owner', '--no-privileges', ...pgTarget(url), source],
    url,
  )
  const check = new pg.Client({ connectionString: url })
  await check.connect()
  try {
    const restored = await check.query<{ n: number }>('SELECT count(*)::int AS n FROM kysely_migration')
    if (restored.rows[0]!.n === 0) throw new BackupError('the restored database has no migration history')
  } finally {
    await check.end()
  }
}

/** Rows of the COPY blocks in a plain-text dump (tab-separated, `\.` ends a block). */
function copyRows(script: string): string[][] {
  const rows: string[][] = []
  let inCopy = false
  for (const line of script.split('\n')) {
    if (inCopy && line === '\\.') inCopy = false
    else if (inCopy) rows.push(line.split('\t'))
    else if (/^COPY .* FROM stdin;$/.test(line)) inCopy = true
  }
  return rows
}

// ---------------------------------------------------------------- PostgreSQL tools

/**
 * `pg_dump`/`pg_restore`: on PATH, else the newest /usr/lib/postgresql/<v>/bin
 * (Debian's layout). A clear error when neither has it.
 */
export function findPgTool(name: 'pg_dump' | 'pg_restore', places: { path?: string; roots?: string[] } = {}): string {
  const searchPath = places.path ?? process.env.PATH ?? ''
  const dirs = searchPath.split(path.delimiter).filter(Boolean)
  for (const root of places.roots ?? ['/usr/lib/postgresql']) {
    if (!fs.existsSync(root)) continue
    const versions = fs
      .readdirSync(root)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a))
    dirs.push(...versions.map((v) => path.join(root, v, 'bin')))
  }
  for (const dir of dirs) {
    const candidate = path.join(dir, name)
    try {
      fs.accessSync(candidate, fs.constants.X_OK)
      return candidate
    } catch {
      // not here
    }
  }
  throw new BackupError(
    `${name} was not found on PATH or in /usr/lib/postgresql/*/bin: install the PostgreSQL client tools ` +
      '(Debian/Ubuntu: apt-get install postgresql-client) in a version at least the server’s',
  )
}

/**
 * The connection as pg_dump/pg_restore arguments. The password goes through
 * the environment (PGPASSWORD), never the command line another user can read.
 */
function pgTarget(url: string): string[] {
  const parsed = new URL(url)
  parsed.password = ''
  return [`--dbname=${parsed.toString()}`]
}

function pgEnv(url: string): NodeJS.ProcessEnv {
  const password = decodeURIComponent(new URL(url).password)
  // Every stake's rows: the setting row-level security reads (db/stake-scope.ts).
  const options = [process.env.PGOPTIONS, '-c app.stake_id=all'].filter(Boolean).join(' ')
  return { ...process.env, PGOPTIONS: options, ...(password ? { PGPASSWORD: password } : {}) }
}

/** Runs a tool to completion; its stdout, or a BackupError with its stderr. */
function run(command: string, args: string[], url?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const env = url ? pgEnv(url) : process.env
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.stderr.on('data', (chunk) => (err += chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0) resolve(out)
      else reject(new BackupError(`${path.basename(command)} failed: ${err.trim() || `exit code ${code}`}`))
    })
  })
}

// ---------------------------------------------------------------- CLI

/**
 * `backup [--out DIR]` and `restore <file> --yes`. cli.ts runs them before it
 * opens and migrates the database: a backup copies the database as it is, and
 * a restore must find the target untouched (and unused).
 */
export async function backupCommand(command: 'backup' | 'restore', args: string[], config: Config): Promise<number> {
  try {
    if (command === 'backup') {
      const i = args.indexOf('--out')
      const out = i === -1 ? undefined : args[i + 1]
      if (i !== -1 && !out) throw new BackupError('--out needs a directory')
      console.log(await takeBackup(config, { out }))
      return 0
    }
    const file = args.find((a) => !a.startsWith('--'))
    if (!file) throw new BackupError('restore needs the backup file: restore <file> --yes')
    if (!args.includes('--yes')) {
      throw new BackupError('restore replaces the whole database with the backup; add --yes to do it')
    }
    await restoreBackup(config, file)
    console.log(`Restored ${path.resolve(file)} into the database; start the server to use it.`)
    return 0
  } catch (error) {
    if (!(error instanceof BackupError)) throw error
    console.error(`Error: ${error.message}`)
    return 1
  }
}
