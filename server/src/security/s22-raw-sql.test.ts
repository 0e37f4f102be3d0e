import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, it } from 'node:test'
import { STAKE_TABLES } from '../modules/tables.ts'
import { productionSources, sqlFragments, unscopedFragments } from '../test/sql-fragments.ts'

/**
 * S22, no raw SQL names a stake-owned table without the stake condition
 * (docs/api-reference.md §14): the stake-scope plugin (db/stake-scope.ts)
 * rewrites the queries Kysely builds, but a raw `sql` fragment is opaque to
 * it. Every fragment of the server's sources that names a stake-owned table
 * (the declared ones, modules/tables.ts) must carry its own `stake_id`
 * condition. Migrations run across stakes by design and are not scanned.
 */
const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')

describe('S22: raw SQL fragments keep the stake condition', () => {
  it('no fragment of the server names a stake-owned table without stake_id', () => {
    const fragments = productionSources(SRC).flatMap((file) =>
      sqlFragments(path.relative(SRC, file), fs.readFileSync(file, 'utf8')),
    )
    assert.ok(fragments.length > 20, `found ${fragments.length} fragments`)
    assert.ok(
      fragments.some((f) => f.text.includes('proposal_presentations')),
      'the presentations subquery is among the fragments scanned',
    )
    assert.deepEqual(unscopedFragments(fragments, STAKE_TABLES), [])
  })

  it('finds a fragment that names a stake-owned table without its stake, nested or not', () => {
    const source = [
      'const a = sql<number>`(select count(*) from proposal_votes v where v.proposal_id = ${id})`',
      'const b = sql`select ${sql`1 from users`}`',
      "const c = sql.table('webhooks')",
      'const d = sql`select 1 from login_throttle where key = ${key}`',
      'const e = sql`(select 1 from users u where u.stake_id = p.stake_id)`',
    ].join('\n')
    assert.deepEqual(unscopedFragments(sqlFragments('x.ts', source), STAKE_TABLES), [
      'x.ts:1 names proposal_votes without a stake_id condition',
      'x.ts:2 names users without a stake_id condition',
      'x.ts:3 names webhooks without a stake_id condition',
    ])
  })
})
