import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'
import { sql } from 'kysely'
import { DatabaseUnavailable, isDatabaseUnavailable } from '../../db/unavailable.ts'
import { createTestApp, dialect, useTestApp, type TestApp } from '../../test/harness.ts'
import { createAdmin, login, signedIn, ALL_PERMISSIONS } from '../../test/factories.ts'
import { LOGIN_BODY_LIMIT } from '../auth/auth.routes.ts'

describe('which errors mean "database unavailable"', () => {
  const pgError = (code: string) => Object.assign(new pg.DatabaseError('message', 0, 'error'), { code })

  it('is decided by the error type and its code, never its message', () => {
    for (const code of [
      'SQLITE_FULL',
      'SQLITE_BUSY',
      'SQLITE_BUSY_SNAPSHOT',
      'SQLITE_READONLY',
      'SQLITE_IOERR_WRITE',
    ]) {
      assert.equal(isDatabaseUnavailable(new BetterSqlite3.SqliteError('m', code)), true, code)
    }
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '53300', '57014', '25006']) {
      assert.equal(isDatabaseUnavailable(pgError(code)), true, code)
    }
    assert.equal(isDatabaseUnavailable(new DatabaseUnavailable(new Error('Connection terminated unexpectedly'))), true)
    for (const error of [
      new BetterSqlite3.SqliteError('m', 'SQLITE_CONSTRAINT_UNIQUE'),
      pgError('23505'),
      pgError('40P01'),
      new Error('Connection terminated unexpectedly'),
      new Error('database or disk is full'),
      null,
    ]) {
      assert.equal(isDatabaseUnavailable(error), false, String(error))
    }
  })
})

/** Makes the test database refuse writes (and /ready fail) until `undo` runs. */
async function readOnly(t: TestApp): Promise<() => Promise<void>> {
  const db = t.database.db
  if (dialect === 'sqlite') {
    await sql`pragma query_only = on`.execute(db)
    return async () => void (await sql`pragma query_only = off`.execute(db))
  }
  // New sessions start read-only; the pool's open ones are ended (the pool replaces them).
  const name = sql.id((await sql<{ name: string }>`select current_database() as name`.execute(db)).rows[0]!.name)
  const flip = (value: 'on' | 'off') =>
    db.connection().execute(async (c) => {
      await sql`set default_transaction_read_only = off`.execute(c)
      await sql`alter database ${name} set default_transaction_read_only = ${sql.raw(value)}`.execute(c)
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(
        c,
      )
      await sql`select pg_terminate_backend(pg_backend_pid())`.execute(c).catch(() => {})
    })
  await flip('on').catch(() => {})
  return async () => void (await flip('off').catch(() => {}))
}

/** Repeats `send` until it answers `status` (a connection the pool still held may fail once); all answers seen. */
async function until(status: number, send: () => Promise<{ statusCode: number }>): Promise<number[]> {
  const seen: number[] = []
  for (let i = 0; i < 20 && seen.at(-1) !== status; i++) seen.push((await send()).statusCode)
  return seen
}

describe('a database that cannot take writes', () => {
  const t = useTestApp()

  it('answers writes 503 unavailable with Retry-After, serves reads, fails /ready, and recovers', async () => {
    const { as } = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const undo = await readOnly(t)
    try {
      const writes = await until(503, () => as('POST', '/api/wards', { name: 'Refused', start_time: 540 }))
      assert.deepEqual(
        writes.filter((s) => s !== 503),
        [],
        'never 201 or 500',
      )
      const write = await as('POST', '/api/wards', { name: 'Refused', start_time: 540 })
      assert.equal(write.statusCode, 503)
      assert.equal(write.headers['retry-after'], '5')
      assert.deepEqual(write.json(), { detail: 'The database is unavailable; try again shortly', code: 'unavailable' })

      const reads = await until(200, () => as('GET', '/api/wards'))
      assert.equal(reads.at(-1), 200, `reads: ${reads}`)
      assert.deepEqual(
        reads.filter((s) => s !== 200 && s !== 503),
        [],
      )
      const ready = await until(503, () => t.app.inject({ method: 'GET', url: '/api/ready' }))
      assert.equal(ready.at(-1), 503)
    } finally {
      await undo()
    }
    assert.equal((await until(200, () => t.app.inject({ method: 'GET', url: '/api/ready' }))).at(-1), 200)
    assert.equal((await until(201, () => as('POST', '/api/wards', { name: 'Accepted', start_time: 540 }))).at(-1), 201)
  })
})

describe(
  'SQLite: the first error of a transaction is the one reported',
  { skip: dialect !== 'sqlite' && 'SQLite pass only' },
  () => {
    const t = useTestApp()

    it('a ROLLBACK after SQLite rolled back on its own does not replace the error', async () => {
      // SQLite ends the transaction itself on SQLITE_FULL, SQLITE_IOERR...; the
      // inner ROLLBACK stands in for that here.
      const real = new Error('the real failure')
      await assert.rejects(
        t.database.db.transaction().execute(async (trx) => {
          await sql`rollback`.execute(trx)
          throw real
        }),
        (error) => error === real,
      )
      assert.equal((await sql<{ one: number }>`select 1 as one`.execute(t.database.db)).rows[0]!.one, 1)
    })
  },
)

describe('shutdown as the requests see it', () => {
  it('draining: /ready 503 and Connection: close; closed: 503 with the contract body', async () => {
    const t = await createTestApp()
    try {
      t.app.lifecycle.draining = true
      const ready = await t.app.inject({ method: 'GET', url: '/api/ready' })
      assert.equal(ready.statusCode, 503)
      assert.equal(ready.json().code, 'unavailable')
      const health = await t.app.inject({ method: 'GET', url: '/api/health' })
      assert.equal(health.statusCode, 200, 'requests on their way are served')
      assert.equal(health.headers.connection, 'close')

      t.app.lifecycle.closing = true
      const late = await t.app.inject({ method: 'GET', url: '/api/health' })
      assert.equal(late.statusCode, 503)
      assert.equal(late.headers.connection, 'close')
      assert.equal(late.headers['retry-after'], '5')
      assert.deepEqual(late.json(), { detail: 'The service is shutting down', code: 'unavailable' })
    } finally {
      await t.close()
    }
  })
})

describe('body limits say their real size', () => {
  const t = useTestApp()
  const form = (body: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: body,
    })

  it('the sign-in form: 413 "limit 16 KiB" over it, while the longest valid form fits', async () => {
    const tooBig = await form(
      new URLSearchParams({ username: 'a@example.org', password: 'p'.repeat(17 * 1024) }).toString(),
    )
    assert.equal(tooBig.statusCode, 413)
    assert.deepEqual(tooBig.json(), { detail: 'Request body is too large (limit 16 KiB)' })
    // 254 + 1,024 characters of 4 UTF-8 bytes each, percent-encoded.
    const longest = new URLSearchParams({ username: '😀'.repeat(254), password: '😀'.repeat(1024) }).toString()
    assert.ok(Buffer.byteLength(longest) <= LOGIN_BODY_LIMIT)
    assert.equal((await form(longest)).statusCode, 401)
  })

  it('JSON routes: 413 "limit 1 MiB"', async () => {
    const { token } = await login(t, await createAdmin(t))
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      payload: JSON.stringify({ email: 'x'.repeat(1024 * 1024) }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    })
    assert.equal(res.statusCode, 413)
    assert.deepEqual(res.json(), { detail: 'Request body is too large (limit 1 MiB)' })
  })
})
