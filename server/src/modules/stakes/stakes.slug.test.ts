import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { AuditEntry, Stake, StakeBody } from '@stake/contract'
import { migrate } from '../../db/migrate.ts'
import type { Kysely } from 'kysely'
import { ALL_PERMISSIONS, injectAs, signedIn, unique } from '../../test/factories.ts'
import { blankDatabase } from '../../test/blank-database.ts'
import { useTestApp } from '../../test/harness.ts'
import { otherStake } from '../../test/stakes.fixtures.ts'
import { createSignupCode } from './signup.repository.ts'
import { hashSecret } from '../auth/tokens.ts'

const t = useTestApp()
const STAKE = '/api/stake'

const anonymous = (url: string) => t.app.inject({ method: 'GET', url })
const wardNames = async (url: string) => {
  const res = await anonymous(url)
  assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
  return (res.json() as { name: string }[]).map((w) => w.name)
}

type As = Awaited<ReturnType<typeof otherStake>>['as']
const stakeOf = async (as: As) => (await as('GET', STAKE)).json() as Stake
const bodyWith = (stake: Stake, changes: Partial<StakeBody>): StakeBody => {
  const { id: _id, settings_saved: _saved, ...body } = stake
  return { ...body, ...changes }
}

let address = 0
async function signup(stakeName: string): Promise<As> {
  const code = unique('code-')
  await createSignupCode(t.database.db, hashSecret(code), 1, t.clock.iso())
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/stakes',
    remoteAddress: `10.9.0.${++address}`,
    payload: {
      code,
      stake_name: stakeName,
      email: `${unique('founder')}@example.org`,
      fname: 'Ana',
      lname: 'Founder',
      password: `pw-${unique()}-${unique()}`,
    },
  })
  assert.equal(res.statusCode, 201, res.body)
  return injectAs(t, res.json().access_token as string)
}

describe("each stake's slug (docs/api-reference.md §14)", () => {
  it('is made from the name at creation (accents folded); a second stake of the same name gets a suffix', async () => {
    const first = await stakeOf(await signup('  Estaca Córdoba Norte '))
    const second = await stakeOf(await signup('Estaca Córdoba Norte'))
    assert.equal(first.slug, 'estaca-cordoba-norte')
    assert.equal(second.slug, 'estaca-cordoba-norte-2')
    const operator = await otherStake(t, 'Mañana — Ward 12!')
    assert.equal((await stakeOf(operator.as)).slug, 'manana-ward-12')
    const digits = await otherStake(t, '2024')
    assert.equal((await stakeOf(digits.as)).slug, 'stake-2024', 'a slug starts with a letter: never read as an id')
  })

  it('stays unique when two stakes of one name are made at the same time', async () => {
    const made = await Promise.all([otherStake(t, 'Twin Peaks Stake'), otherStake(t, 'Twin Peaks Stake')])
    const slugs = await Promise.all(made.map((s) => stakeOf(s.as).then((x) => x.slug)))
    assert.deepEqual(slugs.sort(), ['twin-peaks-stake', 'twin-peaks-stake-2'])
  })

  it('anonymous reads take ?stake=<slug> or ?stake=<id>; without it, the default stake', async () => {
    const b = await otherStake(t, 'Willow Creek Stake')
    const ward = unique('Willow Ward ')
    assert.equal((await b.as('POST', '/api/wards/', { name: ward, start_time: 600 })).statusCode, 201)
    const { slug } = await stakeOf(b.as)
    assert.deepEqual(await wardNames(`/api/wards/?stake=${slug}`), [ward])
    assert.deepEqual(await wardNames(`/api/wards/?stake=${b.stakeId}`), [ward])
    assert.deepEqual(await wardNames(`/api/wards/?stake=${slug.toUpperCase()}`), [ward], 'any letter case')
    assert.ok(!(await wardNames('/api/wards/')).includes(ward))

    const callings = await anonymous(`/api/callings/?stake=${slug}&limit=200&sort=name`)
    assert.equal(callings.statusCode, 200, callings.body)
    const mine = (await b.as('GET', '/api/callings/?limit=200&is_public=true')).json() as { id: number }[]
    assert.deepEqual(
      (callings.json() as { id: number }[]).map((c) => c.id).sort(),
      mine.map((c) => c.id).sort(),
      "the public callings are that stake's",
    )
  })

  it('an unknown slug or id is 404 not_found for an anonymous caller, as a missing record', async () => {
    const missingWard = await anonymous('/api/wards/999999')
    for (const url of [
      '/api/wards/?stake=no-such-stake',
      '/api/wards/?stake=999999',
      '/api/callings/?stake=no-such-stake',
      '/api/callings/?stake=Not%20a%20slug!',
      `/api/wards/?stake=${'a'.repeat(500)}`,
    ]) {
      const res = await anonymous(url)
      assert.equal(res.statusCode, 404, `${url}: ${res.body}`)
      assert.equal(res.json().code, 'not_found')
      assert.deepEqual(Object.keys(res.json()).sort(), Object.keys(missingWard.json()).sort())
    }
  })

  it("a signed-in user reads their own stake's, whatever ?stake= names", async () => {
    const b = await otherStake(t)
    const ward = unique('Cedar Ward ')
    await b.as('POST', '/api/wards/', { name: ward, start_time: 600 })
    const a = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const { slug: slugA } = await stakeOf(a.as)
    for (const url of ['/api/wards/', `/api/wards/?stake=${slugA}`, '/api/wards/?stake=no-such-stake']) {
      const res = await b.as('GET', url)
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
      assert.deepEqual(
        (res.json() as { name: string }[]).map((w) => w.name),
        [ward],
        url,
      )
    }
  })

  it('PUT /stake changes it: format and length are 422, a taken one 409 slug_taken; the change is audited', async () => {
    const b = await otherStake(t, 'Birch Stake')
    const a = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const before = await stakeOf(b.as)
    const put = (slug: unknown) => b.as('PUT', STAKE, { ...bodyWith(before, {}), slug } as object)

    for (const [slug, type] of [
      ['Birch Stake', 'slug_format'],
      ['birch_stake', 'slug_format'],
      ['-birch', 'slug_format'],
      ['birch-', 'slug_format'],
      ['birch--stake', 'slug_format'],
      ['7birch', 'slug_format'],
      ['b', 'string_too_short'],
      ['b'.repeat(61), 'string_too_long'],
      [12, 'string_type'],
    ] as const) {
      const res = await put(slug)
      assert.equal(res.statusCode, 422, `${slug}: ${res.body}`)
      assert.deepEqual(res.json().detail[0].loc, ['body', 'slug'], String(slug))
      assert.equal(res.json().detail[0].type, type, String(slug))
    }

    const taken = await put((await stakeOf(a.as)).slug)
    assert.equal(taken.statusCode, 409, taken.body)
    assert.equal(taken.json().code, 'slug_taken')
    assert.equal((await stakeOf(b.as)).slug, before.slug, 'nothing changed')

    const slug = unique('birch-')
    const saved = await put(slug)
    assert.equal(saved.statusCode, 200, saved.body)
    assert.equal(saved.json().slug, slug)
    assert.equal((await stakeOf(b.as)).slug, slug)
    assert.equal((await anonymous(`/api/wards/?stake=${before.slug}`)).statusCode, 404, 'the old address is gone')
    assert.equal((await anonymous(`/api/wards/?stake=${slug}`)).statusCode, 200)

    const [entry] = (await b.as('GET', '/api/audit?action=stake.update')).json() as AuditEntry[]
    assert.deepEqual(entry!.detail, { name: before.name, changes: { slug: { from: before.slug, to: slug } } })

    const kept = await b.as('PUT', STAKE, { ...bodyWith(before, { name: 'Birch Stake' }), slug: undefined })
    assert.equal(kept.statusCode, 200, kept.body)
    assert.equal(kept.json().slug, slug, 'without slug the stake keeps its address')
    assert.equal((await b.as('PUT', STAKE, bodyWith(await stakeOf(b.as), {}))).statusCode, 200, 'its own slug is free')
  })

  it('the migration gives existing stakes slugs from their names, oldest first, and makes them unique', async () => {
    const { database } = await blankDatabase()
    try {
      await migrate(database.db)
      // The schema as it was before the migration, with stakes of awkward names.
      const raw = database.db.withoutPlugins() as Kysely<any>
      await raw.updateTable('stakes').set({ name: 'Our Stake' }).where('id', '=', 1).execute()
      await raw.schema.dropIndex('stakes_slug_uq').execute()
      await raw.schema.alterTable('stakes').dropColumn('slug').execute()
      const row = (name: string) => ({
        name,
        timezone: 'UTC',
        language: 'en',
        sp_approvals_required: 2,
        hc_approvals_required: 3,
        high_council_seats: 12,
        settings_from_env: false,
        created_at: t.clock.iso(),
        updated_at: t.clock.iso(),
      })
      for (const name of ['Estaca Peñón', 'Estaca Peñon', '東京', 'Our Stake']) {
        await raw.insertInto('stakes').values(row(name)).execute()
      }
      const { up } = await import('../../db/migrations/20261201100000_stake_slugs.ts')
      await up(raw)
      const slugs = await raw.selectFrom('stakes').select(['name', 'slug']).orderBy('id').execute()
      assert.deepEqual(
        slugs.map((s) => s.slug),
        ['our-stake', 'estaca-penon', 'estaca-penon-2', 'stake', 'our-stake-2'],
      )
      await assert.rejects(
        () => raw.updateTable('stakes').set({ slug: 'our-stake' }).where('slug', '=', 'stake').execute(),
        'the database refuses a second stake with one slug',
      )
    } finally {
      await database.close()
    }
  })
})
