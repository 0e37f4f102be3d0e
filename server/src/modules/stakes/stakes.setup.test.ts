import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { StakeSetup } from '@stake/contract'
import { inStake } from '../../db/stake-scope.ts'
import { ALL_PERMISSIONS, createUser, seat, signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { bishopOf, createWard, submit, tracker } from '../../test/proposals.fixtures.ts'
import { otherStake } from '../../test/stakes.fixtures.ts'

const SETUP = '/api/stake/setup'
const NONE_DONE: StakeSetup = { stake: false, wards: false, seats: false, users: false, proposal: false }

describe("a new stake's first steps: GET /stake/setup", () => {
  const t = useTestApp()
  let fresh: Awaited<ReturnType<typeof otherStake>>

  before(async () => {
    // The first stake has a ward with its bishop, the presidency, high councilors and a proposal: none of it counts elsewhere.
    const people = await tracker(t, 12)
    await submit(people.bishop.as, people.ward)
    fresh = await otherStake(t)
  })

  const setupOf = async (as: typeof fresh.as): Promise<StakeSetup> => {
    const res = await as('GET', SETUP)
    assert.equal(res.statusCode, 200, res.body)
    return res.json()
  }

  it("answers a new stake's administrator with nothing done, whatever another stake has done", async () => {
    assert.deepEqual(await setupOf(fresh.as), NONE_DONE)
  })

  it('refuses anyone without all four permissions the steps need (403), and anyone signed out (401)', async () => {
    const plain = await signedIn(t)
    assert.equal((await plain.as('GET', SETUP)).statusCode, 403)
    const almost = await signedIn(t, { permissions: ['wards.manage', 'callings.manage', 'users.manage'] })
    assert.equal((await almost.as('GET', SETUP)).statusCode, 403)
    const enough = await signedIn(t, {
      permissions: ['wards.manage', 'callings.manage', 'users.manage', 'proposals.submit'],
    })
    assert.equal((await enough.as('GET', SETUP)).statusCode, 200)
    assert.equal((await t.app.inject({ method: 'GET', url: SETUP })).statusCode, 401)
  })

  it('ticks off each step from the data, in the caller’s stake only', async () => {
    const { as, stakeId } = fresh
    const inFresh = <T>(work: () => Promise<T>) => inStake(stakeId, work)

    const stake = (await as('GET', '/api/stake')).json()
    const { id: _id, settings_saved: _saved, ...body } = stake
    // Saved means changed after the stake was made.
    t.clock.advance(1)
    assert.equal(
      (await as('PUT', '/api/stake', { ...body, sp_approvals_required: 2, hc_approvals_required: 2 })).statusCode,
      200,
    )
    assert.deepEqual(await setupOf(as), { ...NONE_DONE, stake: true })

    // A ward without its bishop is not done; with one it is.
    const ward = await inFresh(() => createWard(t.database.db))
    assert.equal((await setupOf(as)).wards, false)
    const bishop = await inFresh(() => bishopOf(t, ward))
    assert.equal((await setupOf(as)).wards, true)

    // The approvals each voting stage needs (two and two here), from filled seats.
    const seatNew = (key: string) => inFresh(async () => seat(t, key, (await createUser(t)).id))
    await seatNew('stake_president')
    await seatNew('high_councilor')
    await seatNew('high_councilor')
    assert.equal((await setupOf(as)).seats, false, 'one presidency vote of two')
    await seatNew('stake_first_counselor')
    assert.equal((await setupOf(as)).seats, true)

    // The bishop and the seated people above signed in with passwords of their own: someone else.
    assert.equal((await setupOf(as)).users, true)
    assert.equal((await setupOf(as)).proposal, false)
    await submit(bishop.as, ward)
    assert.deepEqual(await setupOf(as), { stake: true, wards: true, seats: true, users: true, proposal: true })
  })

  it('counts someone else once invited or signed in with a password of their own, not a roster entry or a password to change', async () => {
    const other = await otherStake(t)
    const users = async () => (await setupOf(other.as)).users
    assert.equal((await other.as('POST', '/api/users', { fname: 'Rosa', lname: 'Roster' })).statusCode, 201)
    await inStake(other.stakeId, () => createUser(t, { forcePasswordReset: true }))
    await inStake(other.stakeId, () => createUser(t, { active: false }))
    assert.equal(await users(), false, 'a roster entry, a password to change, an inactive account')
    const email = `invited-${Date.now()}@example.org`
    assert.equal(
      (await other.as('POST', '/api/users', { email, fname: 'Ines', lname: 'Invited', invite: true })).statusCode,
      201,
    )
    assert.equal(await users(), true, 'invited')

    const third = await otherStake(t)
    await inStake(third.stakeId, () => createUser(t, { permissions: ALL_PERMISSIONS }))
    assert.equal((await setupOf(third.as)).users, true, 'signed in with a password of their own')
  })
})
