import assert from 'node:assert/strict'
import { describe, it, mock } from 'node:test'
import BetterSqlite3 from 'better-sqlite3'
import { sql } from 'kysely'
import { createDatabase } from '../database.ts'
import { signedIn } from '../test/factories.ts'
import { dialect, useTestApp } from '../test/harness.ts'

/**
 * Kept statements on SQLite (sqliteDriver in database.ts): a text compiled
 * once is run again without compiling it anew, up to DB_PREPARED_STATEMENTS
 * texts per connection. Each test counts better-sqlite3's `prepare` calls.
 */
const sqliteOnly = dialect !== 'sqlite' && 'SQLite only: PostgreSQL names its statements (pg-statements.test.ts)'

function countPrepares() {
  const spy = mock.method(BetterSqlite3.prototype, 'prepare')
  return {
    texts: () => spy.mock.calls.map((call) => String(call.arguments[0])),
    restore: () => spy.mock.restore(),
  }
}

describe('kept statements on SQLite', { skip: sqliteOnly }, () => {
  it('compiles a text once and runs it again; with DB_PREPARED_STATEMENTS=0 compiles it every time', async () => {
    for (const [capacity, expected] of [
      [200, 1],
      [0, 3],
    ] as const) {
      const database = createDatabase('sqlite::memory:', { preparedStatements: capacity })
      const prepares = countPrepares()
      try {
        for (let i = 1; i <= 3; i++) {
          const { rows } = await sql<{ v: number }>`select ${i} + 1 as v`.execute(database.db)
          assert.equal(rows[0]!.v, i + 1)
        }
        const compiled = prepares.texts().filter((text) => text === 'select ? + 1 as v')
        assert.equal(compiled.length, expected, `capacity ${capacity}`)
      } finally {
        prepares.restore()
        await database.close()
      }
    }
  })

  it('keeps at most DB_PREPARED_STATEMENTS texts, the least recently used dropped first', async () => {
    const database = createDatabase('sqlite::memory:', { preparedStatements: 2 })
    const prepares = countPrepares()
    try {
      const run = async (n: number) =>
        (await sql<{ v: number }>`select ${sql.lit(n)} as v`.execute(database.db)).rows[0]!.v
      assert.equal(await run(1), 1)
      assert.equal(await run(2), 2)
      assert.equal(await run(1), 1) // kept: 1 is now the most recently used
      assert.equal(await run(3), 3) // drops 2
      assert.equal(await run(1), 1) // still kept
      assert.equal(await run(2), 2) // compiled again
      const counts = Object.fromEntries(
        [1, 2, 3].map((n) => [n, prepares.texts().filter((t) => t === `select ${n} as v`).length]),
      )
      assert.deepEqual(counts, { 1: 1, 2: 2, 3: 1 })
    } finally {
      prepares.restore()
      await database.close()
    }
  })

  it('runs a text again after a stream of it stopped early (a download the reader gave up on)', async () => {
    const database = createDatabase('sqlite::memory:')
    try {
      const query = () =>
        database.db
          .selectNoFrom((eb) => eb.val(7).as('v'))
          .unionAll(database.db.selectNoFrom((eb) => eb.val(8).as('v')))
      for await (const row of query().stream()) {
        assert.equal(Number(row.v), 7)
        break
      }
      const again = await query().execute()
      assert.deepEqual(
        again.map((r) => Number(r.v)),
        [7, 8],
      )
    } finally {
      await database.close()
    }
  })
})

describe('the app on SQLite compiles its statements once', { skip: sqliteOnly }, () => {
  const t = useTestApp()

  it('answers ten more session checks and user lists without compiling a statement', async () => {
    const { as } = await signedIn(t, { permissions: ['users.manage'] })
    // The first requests compile what they run.
    for (let i = 0; i < 2; i++) assert.equal((await as('GET', '/users')).statusCode, 200)
    const prepares = countPrepares()
    try {
      for (let i = 0; i < 10; i++) {
        const res = await as('GET', '/users')
        assert.equal(res.statusCode, 200, res.body)
      }
      assert.deepEqual(prepares.texts(), [])
    } finally {
      prepares.restore()
    }
  })
})
