import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { Stewardships } from '@stake/contract'
import { signedIn, seat } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { createWard } from '../../test/proposals.fixtures.ts'
import { otherStake } from '../../test/stakes.fixtures.ts'

const URL = '/api/stewardships'
type User = Awaited<ReturnType<typeof signedIn>>

/** docs/api-reference.md §18: high-council stewardships. */
describe('stewardships', () => {
  const t = useTestApp()
  let manager: User
  let member: User
  let wards: number[]

  before(async () => {
    manager = await signedIn(t, { permissions: ['speaking.manage'] })
    member = await signedIn(t)
    wards = [await createWard(t.database.db, 'Birch Ward'), await createWard(t.database.db, 'Aspen Ward')]
  })

  const get = async (user: User): Promise<Stewardships> => {
    const res = await user.as('GET', URL)
    assert.equal(res.statusCode, 200, res.body)
    return res.json()
  }

  it('lists every high-council seat, vacant or not, to anyone signed in; nobody else', async () => {
    const { seats } = await get(member)
    assert.ok(seats.length >= 1)
    assert.deepEqual(
      seats.map((s) => s.slot_id),
      [...seats.map((s) => s.slot_id)].sort((a, b) => a - b),
    )
    assert.ok(seats.every((s) => s.wards.length === 0 && s.organizations.length === 0))
    const anonymous = await t.app.inject({ method: 'GET', url: URL })
    assert.equal(anonymous.statusCode, 401)
  })

  it('saves the assignment (speaking.manage), which stays with the seat when its holder changes', async () => {
    const refused = await member.as('PUT', URL, { seats: [] })
    assert.equal(refused.statusCode, 403)

    const first = await signedIn(t, { fname: 'Hyrum', lname: 'Steward' })
    await seat(t, 'high_councilor', first.user.id, 1)
    const res = await manager.as('PUT', URL, {
      seats: [
        { slot_id: 1, ward_ids: wards, organizations: [' Stake  Primary ', 'stake primary', 'Young Women'] },
        { slot_id: 2, ward_ids: [], organizations: ['Sunday School'] },
      ],
    })
    assert.equal(res.statusCode, 200, res.body)
    const saved = res.json() as Stewardships
    const one = saved.seats.find((s) => s.slot_id === 1)!
    assert.deepEqual(one.high_councilor, { id: first.user.id, fname: 'Hyrum', lname: 'Steward' })
    assert.deepEqual(
      one.wards.map((w) => w.name),
      ['Aspen Ward', 'Birch Ward'],
    )
    assert.deepEqual(one.organizations, ['Stake Primary', 'Young Women'])
    assert.deepEqual(saved.seats.find((s) => s.slot_id === 2)!.organizations, ['Sunday School'])
    assert.deepEqual(await get(member), saved)

    // A new holder of seat 1: the stewardship is the seat's.
    const next = await signedIn(t, { fname: 'Lehi', lname: 'Next' })
    await t.database.db
      .updateTable('calling_slots')
      .set({ user_id: null })
      .where('user_id', '=', first.user.id)
      .execute()
    await seat(t, 'high_councilor', next.user.id, 1)
    const after = (await get(member)).seats.find((s) => s.slot_id === 1)!
    assert.equal(after.high_councilor?.id, next.user.id)
    assert.deepEqual(after.wards, one.wards)

    // Replacing: a seat left out has none.
    const cleared = await manager.as('PUT', URL, { seats: [{ slot_id: 2, ward_ids: [wards[0]], organizations: [] }] })
    assert.equal(cleared.statusCode, 200, cleared.body)
    const seats = (cleared.json() as Stewardships).seats
    assert.deepEqual(seats.find((s) => s.slot_id === 1)!.wards, [])
    assert.deepEqual(
      seats.find((s) => s.slot_id === 2)!.wards.map((w) => w.id),
      [wards[0]],
    )

    // The audit log has the change, by ward name.
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    const log = await admin.as('GET', '/api/audit?action=stewardship.')
    assert.equal(log.statusCode, 200, log.body)
    assert.ok((log.json() as { action: string }[]).some((e) => e.action === 'stewardship.update'))
  })

  it('refuses a ward named twice, an unknown ward or seat, and malformed input (422, never 500)', async () => {
    const bad = async (body: unknown, code?: string) => {
      const res = await manager.as('PUT', URL, body)
      assert.equal(res.statusCode, 422, `${JSON.stringify(body)}: ${res.body}`)
      if (code) assert.match(res.body, new RegExp(code))
    }
    await bad({ seats: [{ slot_id: 1, ward_ids: [wards[0], wards[0]], organizations: [] }] }, 'duplicate_ward')
    await bad(
      {
        seats: [
          { slot_id: 1, ward_ids: [wards[0]], organizations: [] },
          { slot_id: 2, ward_ids: [wards[0]], organizations: [] },
        ],
      },
      'duplicate_ward',
    )
    await bad({ seats: [{ slot_id: 1, ward_ids: [999999], organizations: [] }] }, 'ward_not_found')
    await bad({ seats: [{ slot_id: 999, ward_ids: [], organizations: [] }] }, 'not_a_seat')
    await bad({ seats: [{ slot_id: 1, ward_ids: [], organizations: ['   '] }] })
    await bad({
      seats: [
        { slot_id: 1, ward_ids: [], organizations: [] },
        { slot_id: 1, ward_ids: [], organizations: [] },
      ],
    })
    await bad({ seats: [{ slot_id: 'x' }] })
    await bad({})
    await bad(null)
  })

  it("answers another stake's ward like a missing one", async () => {
    const b = await otherStake(t)
    const res = await b.as('POST', '/api/wards/', { name: 'Other Ward', start_time: 540 })
    assert.equal(res.statusCode, 201, res.body)
    const theirs = await manager.as('PUT', URL, {
      seats: [{ slot_id: 1, ward_ids: [res.json().id], organizations: [] }],
    })
    const missing = await manager.as('PUT', URL, { seats: [{ slot_id: 1, ward_ids: [999999], organizations: [] }] })
    assert.equal(theirs.statusCode, 422)
    assert.equal(theirs.body, missing.body)
    // And B's GET shows B's seats only, with nothing of A.
    const bView = (await b.as('GET', URL)).json() as Stewardships
    assert.ok(bView.seats.every((s) => s.wards.every((w) => w.name === 'Other Ward')))
  })
})
