import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'kysely'
import { acrossStakes, inStake } from '../../db/stake-scope.ts'
import { ALL_PERMISSIONS, signedIn } from '../../test/factories.ts'
import { dialect, useTestApp } from '../../test/harness.ts'
import { otherStake } from '../../test/stakes.fixtures.ts'

const t = useTestApp()

describe('stakes are sealed (docs/api-reference.md §14)', () => {
  it('two stakes may both have "Maple Ward"; each lists, reads and changes only its own', async () => {
    const a = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const b = await otherStake(t)
    const mapleA = await a.as('POST', '/api/wards/', { name: 'Maple Ward', start_time: 540 })
    const mapleB = await b.as('POST', '/api/wards/', { name: 'Maple Ward', start_time: 600 })
    assert.equal(mapleA.statusCode, 201, mapleA.body)
    assert.equal(mapleB.statusCode, 201, mapleB.body)
    const idA = mapleA.json().id as number
    const idB = mapleB.json().id as number

    const listB = (await b.as('GET', '/api/wards/')).json() as { id: number }[]
    assert.deepEqual(
      listB.map((w) => w.id),
      [idB],
    )
    assert.ok(!(await a.as('GET', '/api/wards/')).json().some((w: { id: number }) => w.id === idB))

    // Another stake's id answers exactly as a missing one.
    const missing = await b.as('GET', '/api/wards/999999')
    const foreign = await b.as('GET', `/api/wards/${idA}`)
    assert.equal(foreign.statusCode, 404)
    assert.deepEqual(foreign.json(), missing.json())
    const put = await b.as('PUT', `/api/wards/${idA}`, { name: 'Taken', start_time: 1 })
    assert.equal(put.statusCode, 404)
    assert.equal((await b.as('DELETE', `/api/wards/${idA}`)).statusCode, 404)
    assert.equal((await a.as('GET', `/api/wards/${idA}`)).json().name, 'Maple Ward')
  })

  it('each stake has its own system callings and high-council seats', async () => {
    const b = await otherStake(t)
    const callings = (await b.as('GET', '/api/callings/')).json() as { key: string | null }[]
    assert.ok(callings.some((c) => c.key === 'high_councilor'))
    assert.ok(callings.some((c) => c.key === 'bishop'))
    const counts = await acrossStakes(() =>
      t.database.db
        .selectFrom('callings')
        .select(['stake_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('key', '=', 'bishop')
        .groupBy('stake_id')
        .execute(),
    )
    assert.ok(counts.length >= 2 && counts.every((c) => Number(c.n) === 1))
  })

  it('a query without a stake on a stake-owned table is refused, not run across stakes', async () => {
    await assert.rejects(() => t.appDb.selectFrom('wards').selectAll().execute(), /outside any stake/)
  })

  it(
    "PostgreSQL: row-level security keeps an unfiltered query inside the caller's stake",
    { skip: dialect !== 'postgres' && 'PostgreSQL only' },
    async () => {
      const b = await otherStake(t)
      await b.as('POST', '/api/wards/', { name: 'Only In B', start_time: 600 })
      // Raw SQL: the query plugin cannot see it; the database's policy decides alone.
      const rows = await inStake(1, () =>
        sql<{ name: string; stake_id: number }>`SELECT name, stake_id FROM wards`.execute(t.appDb),
      )
      assert.ok(rows.rows.length > 0)
      assert.ok(rows.rows.every((r) => r.stake_id === 1))
      const none = await sql`SELECT count(*) AS n FROM wards`.execute(t.appDb)
      assert.equal(Number((none.rows[0] as { n: number }).n), 0, 'no stake, no rows')
    },
  )

  it(
    'PostgreSQL: the server warns at start when its role bypasses row-level security, and not otherwise',
    { skip: dialect !== 'postgres' && 'PostgreSQL only' },
    async () => {
      const { bypassesRowSecurity } = await import('../../startup.ts')
      assert.equal(await bypassesRowSecurity(t.database.db), true, 'the tests’ own handle is the superuser')
      assert.equal(await bypassesRowSecurity(t.appDb), false, 'the server’s role is held by row-level security')
    },
  )

  it('anonymous routes answer for the default stake, or the stake ?stake= names', async () => {
    const b = await otherStake(t)
    await b.as('POST', '/api/wards/', { name: 'Willow Ward', start_time: 600 })
    const anonymous = (url: string) => t.app.inject({ method: 'GET', url })
    const names = async (url: string) => ((await anonymous(url)).json() as { name: string }[]).map((w) => w.name)
    assert.ok(!(await names('/api/wards/')).includes('Willow Ward'))
    assert.deepEqual(await names(`/api/wards/?stake=${b.stakeId}`), ['Willow Ward'])
    assert.equal((await anonymous('/api/wards/?stake=999999')).statusCode, 404, 'a stake that does not exist')
  })

  it("another stake's user signs in, refreshes and reads a calendar feed in their own stake", async () => {
    const b = await otherStake(t)
    await b.as('POST', '/api/wards/', { name: 'Birch Ward', start_time: 600 })
    const { login } = await import('../../test/factories.ts')
    const { refresh } = await login(t, b.admin)
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      cookies: { refresh_token: refresh },
    })
    assert.equal(refreshed.statusCode, 200, refreshed.body)
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${refreshed.json().access_token}` },
    })
    assert.equal(me.json().email, b.admin.email)

    const feed = await b.as('POST', '/api/speaking/feed')
    assert.equal(feed.statusCode, 200, feed.body)
    const path = new URL(feed.json().url).pathname
    const ics = await t.app.inject({ method: 'GET', url: path })
    assert.equal(ics.statusCode, 200, ics.body) // found across stakes: the token names its stake
    assert.match(ics.body, /Stake speaking schedule/)
    assert.doesNotMatch(ics.body, /Maple Ward/, "no other stake's ward")
  })

  it('emails are unique across the deployment: another stake cannot take one (409 duplicate_email)', async () => {
    const a = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const b = await otherStake(t)
    const res = await a.as('POST', '/api/users/', { email: b.admin.email.toUpperCase(), fname: 'Copy', lname: 'Cat' })
    assert.equal(res.statusCode, 409, res.body)
    assert.equal(res.json().code, 'duplicate_email')
  })
})
