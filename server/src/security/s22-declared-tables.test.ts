import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'kysely'
import { acrossStakes } from '../db/stake-scope.ts'
import { deploymentTable, stakeTable } from '../db/table.ts'
import { STAKE_TABLES, TABLES, TRANSFERRED } from '../modules/tables.ts'
import { dialect, useTestApp } from '../test/harness.ts'
import { readSchema, schemaDifferences } from '../test/schema-declarations.ts'

/**
 * S22, the stake wall is derived, not listed (docs/api-reference.md §14):
 * every table is declared once in its domain's `<domain>.tables.ts`; the
 * declarations must agree with the schema the migrations build — every table
 * with `stake_id` declared stake-owned, every stake-owned table with
 * `stake_id` (and on PostgreSQL row-level security, FORCE and a policy),
 * every table declared, every declared table present.
 */
describe('S22: the table declarations agree with the real schema', () => {
  const t = useTestApp()
  const schema = () => acrossStakes(() => readSchema(t.database.db, dialect))

  it('every table of the migrated database is declared, as it is', async () => {
    const actual = await schema()
    assert.ok(actual.size > 40, `read ${actual.size} tables`)
    assert.deepEqual(schemaDifferences(TABLES, actual, dialect), [])
  })

  it('fails when a declaration is removed or made deployment-wide', async () => {
    const actual = await schema()
    const { proposal_presentations: _dropped, ...withoutOne } = TABLES
    assert.deepEqual(schemaDifferences(withoutOne, actual, dialect), [
      'proposal_presentations: in the database but not declared in any <domain>.tables.ts',
    ])
    const demoted = { ...TABLES, sessions: deploymentTable({ why: 'a mistake' }) }
    assert.deepEqual(schemaDifferences(demoted, actual, dialect), [
      'sessions: has stake_id but is declared deployment-wide (declare it stake-owned, or say why not)',
    ])
  })

  it('fails when a declared table is missing or lacks stake_id', async () => {
    const actual = new Map(await schema())
    actual.delete('wards')
    const users = actual.get('users')!
    actual.set('users', { ...users, columns: new Set([...users.columns].filter((c) => c !== 'stake_id')) })
    const differences = schemaDifferences(TABLES, actual, dialect)
    assert.ok(differences.includes('wards: declared but not in the database'), differences.join('\n'))
    assert.ok(differences.includes('users: declared stake-owned but has no stake_id'), differences.join('\n'))
  })

  it('a new table with stake_id and no declaration is found in the database itself', async () => {
    await sql`CREATE TABLE s22_undeclared (stake_id integer NOT NULL, id integer PRIMARY KEY)`.execute(t.database.db)
    try {
      assert.deepEqual(schemaDifferences(TABLES, await schema(), dialect), [
        's22_undeclared: in the database but not declared in any <domain>.tables.ts',
      ])
    } finally {
      await sql`DROP TABLE s22_undeclared`.execute(t.database.db)
    }
  })

  it('every foreign key between stake-owned tables carries the stake on both sides', async () => {
    const actual = await schema()
    const votes = actual.get('proposal_votes')!.foreignKeys!.map((k) => `${k.from.join()}>${k.parent}(${k.to.join()})`)
    assert.deepEqual(votes.sort(), [
      'stake_id,approver_id>users(stake_id,id)',
      'stake_id,proposal_id>proposals(stake_id,id)',
      'stake_id>stakes(id)',
    ])
    const overrides = actual.get('speaking_overrides')!.foreignKeys!.find((k) => k.parent === 'calling_slots')
    assert.deepEqual(overrides?.to, ['stake_id', 'calling_id', 'slot_id'])
  })

  it('fails when a foreign key between stake-owned tables is not composite', async () => {
    const db = t.database.db
    const tables = ['s22_single', 's22_nulling_alone', 's22_composite', 's22_nulling_pair']
    await sql`CREATE TABLE s22_single (stake_id integer NOT NULL, id integer PRIMARY KEY,
      user_id integer REFERENCES users (id))`.execute(db)
    await sql`CREATE TABLE s22_nulling_alone (stake_id integer NOT NULL, id integer PRIMARY KEY,
      user_id integer REFERENCES users (id) ON DELETE SET NULL)`.execute(db)
    await sql`CREATE TABLE s22_composite (stake_id integer NOT NULL, id integer PRIMARY KEY, user_id integer,
      FOREIGN KEY (stake_id, user_id) REFERENCES users (stake_id, id) ON DELETE CASCADE)`.execute(db)
    // SQLite's way to null only the column: the single key nulls, the composite key checks.
    await sql`CREATE TABLE s22_nulling_pair (stake_id integer NOT NULL, id integer PRIMARY KEY,
      user_id integer REFERENCES users (id) ON DELETE SET NULL,
      FOREIGN KEY (stake_id, user_id) REFERENCES users (stake_id, id))`.execute(db)
    try {
      const declared = { ...TABLES }
      for (const table of tables) Object.assign(declared, { [table]: stakeTable({ transfer: { never: 'a test' } }) })
      const differences = schemaDifferences(declared, await schema(), dialect).filter((d) => d.includes('foreign key'))
      assert.deepEqual(differences.sort(), [
        's22_nulling_alone: foreign key (user_id) → users is not composite (stake_id, …)',
        's22_single: foreign key (user_id) → users is not composite (stake_id, …)',
      ])
    } finally {
      for (const table of tables) await sql`DROP TABLE ${sql.table(table)}`.execute(db)
    }
  })

  it('PostgreSQL: a stake-owned table without FORCE or without its policy is found', async (ctx) => {
    if (dialect !== 'postgres') return ctx.skip('row-level security is PostgreSQL’s')
    const db = t.database.db
    const policy = await sql<{ policyname: string; qual: string; with_check: string | null }>`
      SELECT policyname, qual, with_check FROM pg_policies WHERE tablename = 'proposal_comments'`.execute(db)
    assert.equal(policy.rows.length, 1)
    const { policyname, qual, with_check } = policy.rows[0]!
    await sql`ALTER TABLE proposal_comments NO FORCE ROW LEVEL SECURITY`.execute(db)
    await sql`DROP POLICY ${sql.id(policyname)} ON proposal_comments`.execute(db)
    try {
      const differences = schemaDifferences(TABLES, await schema(), dialect)
      assert.deepEqual(differences, [
        'proposal_comments: stake-owned without FORCE ROW LEVEL SECURITY',
        'proposal_comments: stake-owned without a row-level-security policy',
      ])
    } finally {
      await sql`ALTER TABLE proposal_comments FORCE ROW LEVEL SECURITY`.execute(db)
      await sql`CREATE POLICY ${sql.id(policyname)} ON proposal_comments USING (${sql.raw(qual)}) WITH CHECK (${sql.raw(with_check ?? qual)})`.execute(
        db,
      )
    }
    assert.deepEqual(schemaDifferences(TABLES, await schema(), dialect), [])
  })

  it('the derived lists follow the declarations: scope, export order, references', () => {
    const stakeOwned = Object.entries(TABLES)
      .filter(([, d]) => d.owner === 'stake')
      .map(([n]) => n)
    assert.deepEqual([...STAKE_TABLES], stakeOwned)
    // An import inserts in this order: every referenced table is exported, with an id, earlier.
    const seen = new Map<string, boolean>()
    for (const spec of TRANSFERRED) {
      for (const [column, target] of Object.entries(spec.refs ?? {})) {
        assert.ok(seen.has(target!), `${spec.table}.${column} names ${target}, which is not exported before it`)
        assert.ok(seen.get(target!), `${spec.table}.${column} names ${target}, which has no id to renumber`)
      }
      seen.set(spec.table, spec.id === true)
    }
  })
})
