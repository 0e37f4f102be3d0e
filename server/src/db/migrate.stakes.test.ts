import { blankDatabase as emptyDatabase, migrateUpTo } from '../test/blank-database.ts'
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { sql, type Kysely } from 'kysely'
import { buildApp } from '../app.ts'
import { parseConfig } from '../config.ts'
import type { Database } from './database.ts'
import { createDatabase, stakeScopePlugin } from '../database.ts'
import { migrate } from './migrate.ts'
import type { DB } from './schema.ts'
import { acrossStakes, inStake } from './stake-scope.ts'
import { STAKE_TABLES } from '../modules/tables.ts'
import { FIRST_STAKE_TABLES } from './stake-tables.ts'
import { ALL_PERMISSIONS, injectAs, login, signedIn } from '../test/factories.ts'
import { TEST_ARGON2, TestClock, useTestApp } from '../test/harness.ts'
import { ok, seedStake } from '../test/isolation.fixtures.ts'

/**
 * docs/api-reference.md §14: "an existing database migrates every row into
 * stake 1 and behaves as before". A database filled through the app (every
 * stake-owned table holds rows) is copied into a database migrated to just
 * before the stakes migration; migrating it puts every row into stake 1,
 * unchanged otherwise, and the app answers on it as it did on the original.
 */

const STAKES_MIGRATION = '20261128000100_stakes'

const blankDatabase = () => emptyDatabase()

/** Tables of the application (not the migrator's own, not `stakes`), as the database lists them. */
async function appTables(db: Kysely<any>): Promise<string[]> {
  const tables = await db.introspection.getTables()
  return tables
    .map((t) => t.name)
    .filter((n) => !n.startsWith('kysely_') && n !== 'stakes' && n !== 'sqlite_sequence')
    .sort()
}

type Rows = Record<string, Record<string, unknown>[]>

const stable = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).sort()
const withoutStake = (row: Record<string, unknown>) => {
  const { stake_id: _, ...rest } = row
  return rest
}

/** GETs whose answers must be the same before and after (the signed-in administrator's view). */
function viewsOf(seeded: Awaited<ReturnType<typeof seedStake>>): string[] {
  const P = '/api/calling-kanban/proposals'
  return [
    '/api/users?limit=200',
    `/api/users/${seeded.users.member.id}`,
    `/api/users/${seeded.users.member.id}/permissions`,
    '/api/callings?limit=200',
    `/api/callings/${seeded.calling}`,
    `/api/callings/${seeded.calling}/history`,
    `/api/callings/${seeded.calling}/permissions`,
    `/api/callings/${seeded.calling}/1`,
    '/api/wards',
    `/api/wards/${seeded.wards[0]}`,
    `${P}?limit=200`,
    `${P}.csv`,
    `${P}/${seeded.proposals.sp}`,
    `${P}/${seeded.proposals.sp}/comments`,
    `${P}/${seeded.proposals.sp}/approvals`,
    `${P}/${seeded.proposals.declined}/history`,
    `${P}/${seeded.proposals.interview}/interview`,
    '/api/calling-kanban/board',
    '/api/actions',
    `/api/sustainings/${seeded.wards[0]}`,
    '/api/speaking/calendar/2026',
    '/api/speaking/calendar/2031',
    '/api/speaking/topics/2031',
    '/api/speaking/feed',
    '/api/webhooks',
    `/api/webhooks/${seeded.webhook}/deliveries`,
    '/api/notifications?limit=200',
    '/api/notifications/preferences',
    '/api/outbox?limit=200',
    '/api/audit?limit=200',
  ]
}

describe('the stakes migration: an existing database becomes stake 1 and works as before', () => {
  const t = useTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', PUSH_ALLOW_PRIVATE: 'true' })
  let seeded: Awaited<ReturnType<typeof seedStake>>
  let original: Rows
  let answers: Map<string, string>

  before(async () => {
    const admin = await signedIn(t, { permissions: ALL_PERMISSIONS, fname: 'Alma', lname: 'Admin' })
    // No ordination: the stage `ordain` came after the stakes migration (the copy goes into its schema).
    seeded = await seedStake(
      t,
      { stakeId: 1, admin: admin.user, token: admin.token, as: admin.as },
      { ordination: false },
    )
    const as = admin.as
    // What HTTP above did not reach: a rotated refresh token, a slot released (history), preferences,
    // mail queued, reminders, a daily run, a webhook delivery.
    await ok(as('DELETE', `/api/callings/${seeded.calling}/1`), 204)
    await ok(as('PUT', `/api/callings/${seeded.calling}/1`, { user_id: seeded.users.member.id }))
    await ok(as('PUT', '/api/notifications/preferences', { email: 'immediate' }))
    await ok(as('POST', `/api/calling-kanban/proposals/${seeded.proposals.sp}/remind`))
    await inStake(1, () => fillTheRest(t.database.db, seeded, t.clock.iso()))

    original = {}
    for (const table of await appTables(t.database.db.withoutPlugins())) {
      original[table] = (await acrossStakes(() =>
        t.database.db
          .selectFrom(table as 'users')
          .selectAll()
          .execute(),
      )) as Record<string, unknown>[]
    }
    answers = new Map()
    for (const url of viewsOf(seeded)) answers.set(url, await view(as, url))
  })

  it('every stake-owned table held rows before the migration', () => {
    const empty = FIRST_STAKE_TABLES.filter((table) => !original[table]?.length)
    assert.deepEqual(empty, [], 'tables the test did not fill')
  })

  it('migrates every row into stake 1, otherwise unchanged, and the app answers as before', async () => {
    const { database, url } = await blankDatabase()
    const app = { close: async () => {} }
    try {
      const raw = database.db.withoutPlugins()
      await migrateUpTo(raw, STAKES_MIGRATION)
      const oldTables = await appTables(raw)
      // Columns later migrations add are not in the old tables: copy and compare the old ones.
      const oldColumns = await columnsOf(raw)
      const old = (table: string) => (row: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(row).filter(([column]) => oldColumns.get(table)?.has(column)))
      await copyRows(database, raw, original, oldTables, oldColumns)

      const ran = await migrate(database.db)
      assert.ok(ran.includes(STAKES_MIGRATION))

      for (const table of oldTables) {
        const rows = (await acrossStakes(() =>
          database.db
            .selectFrom(table as 'users')
            .selectAll()
            .execute(),
        )) as Record<string, unknown>[]
        if (STAKE_TABLES.has(table)) {
          assert.ok(
            rows.every((r) => r.stake_id === 1),
            `${table}: every row in stake 1`,
          )
          assert.deepEqual(
            stable(rows.map(withoutStake).map(old(table))),
            stable(original[table]!.map(withoutStake).map(old(table))),
            table,
          )
        } else {
          assert.deepEqual(stable(rows.map(old(table))), stable(original[table]!.map(old(table))), table)
        }
      }
      const stakes = await database.db.selectFrom('stakes').select(['id', 'name']).execute()
      assert.deepEqual(stakes, [{ id: 1, name: 'Our Stake' }])

      // The app on the migrated database (on PostgreSQL as the role row-level security holds).
      let appDb = database.db.withoutPlugins().withPlugin(stakeScopePlugin(null))
      let appDatabase: Database | null = null
      if (url) {
        const role = process.env.TEST_PG_APP_ROLE
        if (role) {
          await sql.raw(`GRANT USAGE ON SCHEMA public TO ${role}`).execute(raw)
          await sql.raw(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`).execute(raw)
          await sql.raw(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ${role}`).execute(raw)
          const appUrl = new URL(url)
          appUrl.username = role
          appDatabase = createDatabase(appUrl.toString(), { poolSize: 4 })
          appDb = appDatabase.db
        }
      }
      const config = { ...parseConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }), argon2: TEST_ARGON2 }
      const migrated = await buildApp({ config, db: appDb, dialect: database.dialect, clock: new TestClock() })
      await migrated.ready()
      app.close = async () => {
        await migrated.close()
        await appDatabase?.close()
      }
      const twin = { app: migrated } as typeof t
      const { token } = await login(twin, seeded.admin)
      const as = injectAs(twin, token)
      for (const [url, before] of answers) {
        assert.equal(JSON.parse(before).status, 200, `${url} answered on the original: ${before}`)
        assert.equal(await view(as, url), before, url)
      }

      // And it goes on working: a new ward and proposal in stake 1.
      const ward = await ok(as('POST', '/api/wards/', { name: 'Birch Ward', start_time: 600 }), 201)
      const proposal = await ok(
        as('POST', '/api/calling-kanban/proposals', {
          fname: 'New',
          lname: 'Person',
          proposed_calling: 'Clerk',
          ward_id: ward.id,
        }),
        201,
      )
      const rows = await acrossStakes(() =>
        database.db.selectFrom('proposals').select('stake_id').where('id', '=', proposal.id).execute(),
      )
      assert.deepEqual(rows, [{ stake_id: 1 }])
    } finally {
      await app.close()
      await database.close()
    }
  })
})

/** The answer to a GET, as compared before and after (status and body). */
async function view(as: ReturnType<typeof injectAs>, url: string): Promise<string> {
  const res = await as('GET', url)
  return JSON.stringify({ status: res.statusCode, total: res.headers['x-total-count'] ?? null, body: res.body })
}

/** Rows of the tables HTTP does not fill in a test (workers' and jobs' tables), inserted in the default stake. */
async function fillTheRest(db: Kysely<DB>, seeded: Awaited<ReturnType<typeof seedStake>>, now: string) {
  const count = async (table: keyof DB) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  if ((await count('session_retired_tokens')) === 0) {
    const session = await db.selectFrom('sessions').select('id').executeTakeFirstOrThrow()
    await db
      .insertInto('session_retired_tokens')
      .values({ session_id: session.id, token_hash: 'f'.repeat(64), retired_at: now })
      .execute()
  }
  if ((await count('mail_outbox')) === 0) {
    await db
      .insertInto('mail_outbox')
      .values({
        user_id: seeded.admin.id,
        to_address: seeded.admin.email,
        kind: 'comment',
        subject: 'A comment',
        text_body: 'Hello',
        html_body: '<p>Hello</p>',
        next_attempt_at: now,
        created_at: now,
      })
      .execute()
  }
  if ((await count('daily_runs')) === 0)
    await db.insertInto('daily_runs').values({ day: '2026-02-28', started_at: now, finished_at: now }).execute()
  if ((await count('auto_reminders')) === 0) {
    await db
      .insertInto('auto_reminders')
      .values({
        proposal_id: seeded.proposals.sp,
        user_id: seeded.users.counselor.id,
        stage_changed_at: now,
        created_at: now,
      })
      .execute()
  }
  if ((await count('webhook_deliveries')) === 0) {
    await db
      .insertInto('webhook_deliveries')
      .values({
        webhook_id: seeded.webhook,
        event: 'comment',
        at: now,
        status: 'delivered',
        created_at: now,
        delivered_at: now,
      })
      .execute()
  }
}

/** Each table's columns. */
async function columnsOf(db: Kysely<any>): Promise<Map<string, Set<string>>> {
  const tables = await db.introspection.getTables()
  return new Map(tables.map((t) => [t.name, new Set(t.columns.map((c) => c.name))]))
}

/**
 * Copies rows into the older schema (no stake_id) in place of what its
 * migrations made, foreign keys off for the
 * copy (PostgreSQL: replica mode, in one transaction), then the sequences
 * after the highest ids.
 */
async function copyRows(
  database: Database,
  raw: Kysely<any>,
  rows: Rows,
  tables: string[],
  columns: Map<string, Set<string>>,
) {
  const insertAll = async (db: Kysely<any>) => {
    // The rows the migrations themselves made (system callings...) are in the copy too.
    for (const table of tables) await db.deleteFrom(table).execute()
    for (const table of tables) {
      const list = (rows[table] ?? [])
        .map(withoutStake)
        .map((row) => Object.fromEntries(Object.entries(row).filter(([c]) => columns.get(table)?.has(c))))
      for (let i = 0; i < list.length; i += 100)
        await db
          .insertInto(table)
          .values(list.slice(i, i + 100))
          .execute()
    }
  }
  if (database.dialect === 'sqlite') {
    await sql`PRAGMA foreign_keys = OFF`.execute(raw)
    await insertAll(raw)
    await sql`PRAGMA foreign_keys = ON`.execute(raw)
    return
  }
  await raw.transaction().execute(async (trx) => {
    await sql`SET LOCAL session_replication_role = replica`.execute(trx)
    await insertAll(trx)
  })
  for (const table of tables) {
    await sql`
      SELECT setval(seq, (SELECT coalesce(max(id), 0) + 1 FROM ${sql.table(table)}), false)
      FROM (SELECT pg_get_serial_sequence(${table}, 'id') AS seq) s WHERE seq IS NOT NULL`
      .execute(raw)
      .catch(() => {}) // tables without an `id` column
  }
}
