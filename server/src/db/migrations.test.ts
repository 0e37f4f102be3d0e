import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'kysely'
import { dialect, useTestApp } from '../test/harness.ts'

/**
 * The change counters of the former caches are gone with their
 * triggers: a write to users, callings, slots, wards or proposals touches no
 * shared row, so concurrent transactions no longer meet on one.
 */
describe('migrations: no change counters', () => {
  const t = useTestApp()

  it('leaves no counter table and no trigger', async () => {
    const db = t.database.db
    const tables =
      dialect === 'postgres'
        ? await sql<{
            name: string
          }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db)
        : await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
    const names = tables.rows.map((r) => r.name)
    assert.ok(names.includes('proposals'), 'the schema was read')
    for (const counter of ['board_version', 'auth_version', 'speaking_version'])
      assert.ok(!names.includes(counter), counter)

    const triggers =
      dialect === 'postgres'
        ? await sql<{ name: string }>`select tgname as name from pg_trigger where not tgisinternal`.execute(db)
        : await sql<{ name: string }>`select name from sqlite_master where type = 'trigger'`.execute(db)
    assert.deepEqual(triggers.rows, [])
  })
})
