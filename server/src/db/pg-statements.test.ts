import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql, type Kysely } from 'kysely'
import { buildApp } from '../app.ts'
import { createDatabase } from '../database.ts'
import type { FastifyTypebox } from '../http.ts'
import { injectAs, signedIn, unique } from '../test/factories.ts'
import { dialect, useTestApp } from '../test/harness.ts'
import { otherStake } from '../test/stakes.fixtures.ts'
import type { Database } from './database.ts'
import { statementName } from './pg-statements.ts'

/**
 * Plans reused on PostgreSQL (pg-statements.ts): the app's statements are
 * named prepared statements, so a connection parses each once and runs it on
 * a cached plan. Each test holds an app or a handle on ONE connection, so that
 * `pg_prepared_statements` (which shows only its own session's) sees what the
 * requests prepared.
 *
 * SQLite keeps its compiled statements in the driver instead
 * (sqlite-statements.test.ts).
 */
const pgOnly = dialect !== 'postgres' && 'PostgreSQL only: SQLite has no named statements (sqlite-statements.test.ts)'

interface Prepared {
  statement: string
  generic_plans: number | string
  custom_plans: number | string
}

async function prepared(db: Kysely<any>): Promise<Prepared[]> {
  const { rows } = await sql<Prepared>`
    select statement, generic_plans, custom_plans from pg_prepared_statements`.execute(db)
  return rows
}
const executions = (p: Prepared) => Number(p.generic_plans) + Number(p.custom_plans)

/** A database on one connection as the app's role (row-level security holds it), `preparedStatements` each. */
function oneConnection(url: string, options: { preparedStatements?: number; asApp?: boolean } = {}): Database {
  const appUrl = new URL(url)
  if (options.asApp !== false) appUrl.username = process.env.TEST_PG_APP_ROLE ?? appUrl.username
  return createDatabase(appUrl.toString(), {
    poolSize: 1,
    preparedStatements: options.preparedStatements,
    fallbackScope: options.asApp === false ? { stakeId: 1 } : null,
  })
}

describe('the app runs its statements on prepared plans (one connection)', { skip: pgOnly }, () => {
  const t = useTestApp()
  let database: Database
  let app: FastifyTypebox

  // In a block of their own, so that they are closed before the test database is dropped.
  describe('an app on one connection, row-level security alone', () => {
    before(async () => {
      database = oneConnection(t.databaseUrl)
      // Without the query filters: a reused plan must still find the request's stake.
      app = await buildApp({ config: t.config, db: database.db.withoutPlugins(), dialect: 'postgres', clock: t.clock })
      await app.ready()
    })
    after(async () => {
      await app?.close()
      await database?.close()
    })

    it('answers 12 session checks and user lists with one statement each, executed 12 times, on a generic plan', async () => {
      const { token } = await signedIn(t, { permissions: ['users.manage'] })
      for (let i = 0; i < 12; i++) {
        const res = await injectAs({ ...t, app }, token)('GET', '/users')
        assert.equal(res.statusCode, 200, res.body)
      }
      const statements = await prepared(database.db)
      const sessionCheck = statements.filter((p) => /from "sessions"/.test(p.statement) && executions(p) >= 12)
      assert.ok(sessionCheck.length > 0, `no session check run 12 times in ${JSON.stringify(statements, null, 1)}`)
      const list = statements.filter((p) => /from "users"/.test(p.statement) && executions(p) >= 12)
      assert.ok(list.length > 0, 'the user list was run 12 times as one statement')
      // Past the five custom plans PostgreSQL tries first, the plan is kept and no longer made per request.
      assert.ok(
        [...sessionCheck, ...list].every((p) => Number(p.generic_plans) > 0),
        JSON.stringify([...sessionCheck, ...list], null, 1),
      )
    })

    it('runs a plan prepared in one stake with the next request’s stake: each admin lists only their own users', async () => {
      const a = await signedIn(t, { permissions: ['users.manage'] })
      const b = await otherStake(t)
      const emails = async (token: string) => {
        const res = await injectAs({ ...t, app }, token)('GET', '/users?limit=200')
        assert.equal(res.statusCode, 200, res.body)
        return new Set((res.json() as { email: string }[]).map((u) => u.email))
      }
      for (let i = 0; i < 8; i++) assert.ok((await emails(a.token)).has(a.user.email))
      const seenByB = await emails(b.token)
      assert.ok(seenByB.has(b.admin.email))
      assert.ok(!seenByB.has(a.user.email), "stake B's list holds none of stake A's users")
      const seenByA = await emails(a.token)
      assert.ok(seenByA.has(a.user.email) && !seenByA.has(b.admin.email), "stake A's list holds none of stake B's")
      const list = (await prepared(database.db)).filter((p) => /from "users"/.test(p.statement) && executions(p) >= 10)
      assert.ok(
        list.some((p) => Number(p.generic_plans) > 0),
        'the list ran on a reused plan, so the check above is about one',
      )
    })
  })
})

describe('a connection keeps a bounded number of named statements', { skip: pgOnly }, () => {
  const t = useTestApp()

  it('holds at most DB_PREPARED_STATEMENTS, the least recently used dropped first, and answers every statement', async () => {
    const database = oneConnection(t.databaseUrl, { preparedStatements: 3 })
    try {
      const texts = Array.from({ length: 8 }, (_, i) => sql<{ v: number }>`select ${sql.lit(i)}::int + ${1}::int as v`)
      for (const [i, text] of texts.entries()) assert.equal((await text.execute(database.db)).rows[0]!.v, i + 1)
      // The last three are held; the first is prepared again when it comes back.
      assert.equal((await texts[0]!.execute(database.db)).rows[0]!.v, 1)
      const statements = await prepared(database.db)
      assert.ok(statements.length <= 3, `${statements.length} statements held`)
      assert.ok(statements.some((p) => /select 0::int/.test(p.statement)))
    } finally {
      await database.close()
    }
  })

  it('holds none with DB_PREPARED_STATEMENTS=0', async () => {
    const database = oneConnection(t.databaseUrl, { preparedStatements: 0 })
    try {
      for (let i = 0; i < 3; i++) await sql`select ${1}::int as v`.execute(database.db)
      assert.deepEqual(await prepared(database.db), [])
    } finally {
      await database.close()
    }
  })
})

describe('a schema change under a prepared statement', { skip: pgOnly }, () => {
  const t = useTestApp()

  it('prepares the statement again: outside a transaction at once, inside one after it ends', async () => {
    const table = unique('plan_probe_')
    await sql`create table ${sql.table(table)} (id integer)`.execute(t.database.db)
    await sql`insert into ${sql.table(table)} values (1)`.execute(t.database.db)
    const database = oneConnection(t.databaseUrl, { asApp: false })
    const probe = (db: Kysely<any>) => db.selectFrom(table).selectAll().where('id', '=', 1).execute()
    try {
      assert.deepEqual(await probe(database.db), [{ id: 1 }])
      assert.deepEqual(await probe(database.db), [{ id: 1 }])
      // Another connection (a migration) changes the columns `select *` returns.
      await sql`alter table ${sql.table(table)} add column note text`.execute(t.database.db)
      assert.deepEqual(await probe(database.db), [{ id: 1, note: null }])

      await sql`alter table ${sql.table(table)} add column more text`.execute(t.database.db)
      // Inside a transaction the failure aborts it, so it cannot be retried there: it fails once.
      await assert.rejects(
        database.db.transaction().execute((trx) => probe(trx)),
        (error: { code?: string }) => error.code === '0A000',
      )
      assert.deepEqual(await database.db.transaction().execute((trx) => probe(trx)), [
        { id: 1, note: null, more: null },
      ])
    } finally {
      await database.close()
    }
  })
})

describe('statement names', () => {
  it('are a digest of the text: one per text, none for utility statements or several statements', () => {
    const name = statementName('select 1')
    assert.match(name!, /^s_[0-9a-f]{32}$/)
    assert.equal(statementName('select 1'), name)
    assert.notEqual(statementName('select 2'), name)
    for (const text of ['begin', 'commit', 'create table x (id int)', 'vacuum analyze', 'select 1; select 2'])
      assert.equal(statementName(text), null, text)
  })
})
