import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { Calling, CallingHistoryEntry } from '@stake/contract'
import { useTestApp } from '../../test/harness.ts'
import { ALL_PERMISSIONS, createUser, injectAs, signedIn } from '../../test/factories.ts'
import { expectError, locs, makeCalling, systemCallingId, type As } from '../../test/callings.fixtures.ts'

describe('calling slots (docs/api-reference.md §5) and access that follows the calling (docs/api-reference.md §4)', () => {
  const t = useTestApp()
  let admin: As
  let manager: As // callings.manage only
  let reader: As

  before(async () => {
    admin = (await signedIn(t, { permissions: ALL_PERMISSIONS })).as
    manager = (await signedIn(t, { permissions: ['callings.manage'] })).as
    reader = (await signedIn(t)).as
  })

  describe('fill and release', () => {
    it('PUT fills an empty slot: 200 with the slot, shown on the calling', async () => {
      const calling = await makeCalling(manager, { max_slots: 2 })
      const user = await createUser(t)
      const res = await manager('PUT', `/api/callings/${calling.id}/2`, { user_id: user.id })
      assert.equal(res.statusCode, 200, res.body)
      assert.deepEqual(res.json(), {
        slot_id: 2,
        filled: true,
        user_id: user.id,
        user: { id: user.id, fname: user.fname, lname: user.lname },
        ward_id: null,
        set_apart: null,
      })
      assert.deepEqual((await reader('GET', `/api/callings/${calling.id}/2`)).json(), res.json())
      const shown: Calling = (await reader('GET', `/api/callings/${calling.id}`)).json()
      assert.deepEqual(
        shown.slots.map((s) => s.user_id),
        [null, user.id],
      )
    })

    it('returns 409 slot_filled for a filled slot, even for its own holder', async () => {
      const calling = await makeCalling(manager)
      const [one, two] = [await createUser(t), await createUser(t)]
      await manager('PUT', `/api/callings/${calling.id}/1`, { user_id: one.id })
      expectError(await manager('PUT', `/api/callings/${calling.id}/1`, { user_id: two.id }), 409, 'slot_filled')
      expectError(await manager('PUT', `/api/callings/${calling.id}/1`, { user_id: one.id }), 409, 'slot_filled')
    })

    it('returns 422 at body.user_id for an unknown or inactive user, or a missing or bad id', async () => {
      const calling = await makeCalling(manager)
      const inactive = await createUser(t, { active: false })
      assert.deepEqual(locs(await manager('PUT', `/api/callings/${calling.id}/1`, { user_id: 99999999 })), [
        'body.user_id',
      ])
      assert.deepEqual(locs(await manager('PUT', `/api/callings/${calling.id}/1`, { user_id: inactive.id })), [
        'body.user_id',
      ])
      assert.deepEqual(locs(await manager('PUT', `/api/callings/${calling.id}/1`, {})), ['body.user_id'])
      assert.deepEqual(locs(await manager('PUT', `/api/callings/${calling.id}/1`, { user_id: 'x' })), ['body.user_id'])
      assert.deepEqual(locs(await manager('PUT', `/api/callings/${calling.id}/1`, { user_id: 0 })), ['body.user_id'])
      assert.equal((await reader('GET', `/api/callings/${calling.id}/1`)).json().filled, false)
    })

    it('returns 409 when the user already holds another slot of the same calling', async () => {
      const calling = await makeCalling(manager, { max_slots: 2 })
      const user = await createUser(t)
      await manager('PUT', `/api/callings/${calling.id}/1`, { user_id: user.id })
      expectError(await manager('PUT', `/api/callings/${calling.id}/2`, { user_id: user.id }), 409, 'conflict')
      // ...but may hold slots of different callings.
      const other = await makeCalling(manager)
      assert.equal((await manager('PUT', `/api/callings/${other.id}/1`, { user_id: user.id })).statusCode, 200)
    })

    it('returns 404 for an unknown calling or slot, and 422 for bad path ids', async () => {
      const calling = await makeCalling(manager)
      const user = await createUser(t)
      expectError(await manager('PUT', `/api/callings/${calling.id}/2`, { user_id: user.id }), 404, 'not_found')
      expectError(await manager('PUT', `/api/callings/99999999/1`, { user_id: user.id }), 404, 'not_found')
      expectError(await reader('GET', `/api/callings/${calling.id}/2`), 404, 'not_found')
      expectError(await manager('DELETE', `/api/callings/${calling.id}/2`), 404, 'not_found')
      assert.deepEqual(locs(await reader('GET', `/api/callings/${calling.id}/0`)), ['path.slot_id'])
    })

    it('DELETE releases the slot: 204, and again 204 when it is already empty', async () => {
      const calling = await makeCalling(manager)
      const user = await createUser(t)
      await manager('PUT', `/api/callings/${calling.id}/1`, { user_id: user.id })
      const res = await manager('DELETE', `/api/callings/${calling.id}/1`)
      assert.equal(res.statusCode, 204)
      assert.equal(res.body, '')
      assert.equal((await reader('GET', `/api/callings/${calling.id}/1`)).json().filled, false)
      assert.equal((await manager('DELETE', `/api/callings/${calling.id}/1`)).statusCode, 204)
    })

    it('needs callings.manage to fill or release (401 anonymous, 403 without)', async () => {
      const calling = await makeCalling(manager)
      const user = await createUser(t)
      expectError(await reader('PUT', `/api/callings/${calling.id}/1`, { user_id: user.id }), 403, 'forbidden')
      expectError(await injectAs(t, null)('PUT', `/api/callings/${calling.id}/1`, { user_id: user.id }), 401)
      expectError(await reader('DELETE', `/api/callings/${calling.id}/1`), 403, 'forbidden')
    })

    it("system callings' slots can be filled and released; the root alias works too", async () => {
      const id = await systemCallingId(t, 'high_councilor')
      const user = await createUser(t)
      const res = await admin('PUT', `/callings/${id}/7`, { user_id: user.id })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal((await admin('DELETE', `/callings/${id}/7/`)).statusCode, 204)
    })
  })

  describe('history', () => {
    it('keeps every holding: fill → release → fill gives a closed and an open row, oldest first', async () => {
      const calling = await makeCalling(manager)
      const [first, second] = [await createUser(t), await createUser(t)]
      const t0 = t.clock.now().toISOString()
      await manager('PUT', `/api/callings/${calling.id}/1`, { user_id: first.id })
      t.clock.advance(90)
      const t1 = t.clock.now().toISOString()
      await manager('DELETE', `/api/callings/${calling.id}/1`)
      t.clock.advance(30)
      const t2 = t.clock.now().toISOString()
      await manager('PUT', `/api/callings/${calling.id}/1`, { user_id: second.id })

      const res = await reader('GET', `/api/callings/${calling.id}/history`)
      assert.equal(res.statusCode, 200, res.body)
      const rows: CallingHistoryEntry[] = res.json()
      assert.deepEqual(
        rows.map(({ id: _id, ...rest }) => rest),
        [
          {
            slot_id: 1,
            user_id: first.id,
            user: { id: first.id, fname: first.fname, lname: first.lname },
            from: t0,
            to: t1,
          },
          {
            slot_id: 1,
            user_id: second.id,
            user: { id: second.id, fname: second.fname, lname: second.lname },
            from: t2,
            to: null,
          },
        ],
      )
    })

    it('a refused fill leaves no history row', async () => {
      const calling = await makeCalling(manager)
      const [one, two] = [await createUser(t), await createUser(t)]
      await manager('PUT', `/api/callings/${calling.id}/1`, { user_id: one.id })
      await manager('PUT', `/api/callings/${calling.id}/1`, { user_id: two.id })
      const rows: CallingHistoryEntry[] = (await reader('GET', `/api/callings/${calling.id}/history`)).json()
      assert.deepEqual(
        rows.map((r) => r.user_id),
        [one.id],
      )
    })

    it('needs a signed-in caller; 404 for an unknown calling', async () => {
      const calling = await makeCalling(manager, { is_public: true })
      expectError(await injectAs(t, null)('GET', `/api/callings/${calling.id}/history`), 401)
      expectError(await reader('GET', '/api/callings/99999999/history'), 404, 'not_found')
    })
  })

  describe('concurrency', () => {
    it('concurrent fills of one slot leave exactly one winner and one 409 slot_filled', async () => {
      for (let round = 0; round < 5; round++) {
        const calling = await makeCalling(manager)
        const [one, two] = [await createUser(t), await createUser(t)]
        const results = await Promise.all([
          manager('PUT', `/api/callings/${calling.id}/1`, { user_id: one.id }),
          manager('PUT', `/api/callings/${calling.id}/1`, { user_id: two.id }),
        ])
        const statuses = results.map((r) => r.statusCode).sort()
        assert.deepEqual(statuses, [200, 409], results.map((r) => r.body).join(' | '))
        assert.equal(results.find((r) => r.statusCode === 409)!.json().code, 'slot_filled')
        const winner = results.find((r) => r.statusCode === 200)!.json().user_id
        assert.equal((await reader('GET', `/api/callings/${calling.id}/1`)).json().user_id, winner)
        const history: CallingHistoryEntry[] = (await reader('GET', `/api/callings/${calling.id}/history`)).json()
        assert.deepEqual(
          history.map((h) => h.user_id),
          [winner],
        )
      }
    })

    it('concurrent fills of two slots by one user leave exactly one holding', async () => {
      for (let round = 0; round < 5; round++) {
        const calling = await makeCalling(manager, { max_slots: 2 })
        const user = await createUser(t)
        const results = await Promise.all([
          manager('PUT', `/api/callings/${calling.id}/1`, { user_id: user.id }),
          manager('PUT', `/api/callings/${calling.id}/2`, { user_id: user.id }),
        ])
        assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 409], results.map((r) => r.body).join(' | '))
        const shown: Calling = (await reader('GET', `/api/callings/${calling.id}`)).json()
        assert.equal(shown.slots.filter((s) => s.filled).length, 1)
      }
    })
  })

  describe('escalation: nobody seats anyone with more than they hold', () => {
    it('a callings.manage-only user cannot seat a stake president or a high councilor (403)', async () => {
      const user = await createUser(t)
      const president = await systemCallingId(t, 'stake_president')
      const hc = await systemCallingId(t, 'high_councilor')
      expectError(await manager('PUT', `/api/callings/${president}/1`, { user_id: user.id }), 403, 'forbidden')
      expectError(await manager('PUT', `/api/callings/${hc}/1`, { user_id: user.id }), 403, 'forbidden')
      assert.equal((await reader('GET', `/api/callings/${president}/1`)).json().filled, false)
    })

    it('a caller holding every granted permission may seat (high councilor with proposals.submit + view)', async () => {
      const { as } = await signedIn(t, { permissions: ['callings.manage', 'proposals.submit', 'proposals.view'] })
      const user = await createUser(t)
      const hc = await systemCallingId(t, 'high_councilor')
      const res = await as('PUT', `/api/callings/${hc}/2`, { user_id: user.id })
      assert.equal(res.statusCode, 200, res.body)
    })

    it('permissions held through a calling count: a seated stake clerk with callings.manage may seat a president', async () => {
      const clerk = await signedIn(t)
      const president = await createUser(t)
      assert.equal(
        (await admin('PUT', `/api/callings/${await systemCallingId(t, 'stake_clerk')}/1`, { user_id: clerk.user.id }))
          .statusCode,
        200,
      )
      const res = await clerk.as('PUT', `/api/callings/${await systemCallingId(t, 'stake_president')}/1`, {
        user_id: president.id,
      })
      assert.equal(res.statusCode, 200, res.body)
    })

    it('a callings.manage-only user may seat someone in a calling whose grants they hold', async () => {
      const calling = await makeCalling(admin, { permissions: ['callings.manage'] })
      const user = await createUser(t)
      assert.equal((await manager('PUT', `/api/callings/${calling.id}/1`, { user_id: user.id })).statusCode, 200)
      const wider = await makeCalling(admin, { permissions: ['callings.manage', 'wards.manage'] })
      expectError(await manager('PUT', `/api/callings/${wider.id}/1`, { user_id: user.id }), 403, 'forbidden')
    })
  })

  describe('access follows the calling', () => {
    it('filling a slot grants its permissions on the next request; releasing takes them away; /auth/me shows it', async () => {
      const calling = await makeCalling(admin, { permissions: ['callings.manage'], name: 'Assistant Clerk Test' })
      const member = await signedIn(t)
      expectError(await member.as('POST', '/api/callings/', { name: 'Made by member 1' }), 403, 'forbidden')

      assert.equal((await admin('PUT', `/api/callings/${calling.id}/1`, { user_id: member.user.id })).statusCode, 200)
      const made = await member.as('POST', '/api/callings/', { name: 'Made by member 1' })
      assert.equal(made.statusCode, 201, made.body)
      const me = (await member.as('GET', '/api/auth/me')).json()
      assert.deepEqual(me.callings, [
        { calling_id: calling.id, name: 'Assistant Clerk Test', key: null, slot_id: 1, ward_id: null },
      ])
      assert.deepEqual(me.permissions, ['callings.manage'])

      assert.equal((await admin('DELETE', `/api/callings/${calling.id}/1`)).statusCode, 204)
      expectError(await member.as('POST', '/api/callings/', { name: 'Made by member 2' }), 403, 'forbidden')
      const after = (await member.as('GET', '/api/auth/me')).json()
      assert.deepEqual(after.callings, [])
      assert.deepEqual(after.permissions, [])
    })

    it("changing a calling's grants changes its holders' access on the next request", async () => {
      const calling = await makeCalling(admin)
      const member = await signedIn(t)
      await admin('PUT', `/api/callings/${calling.id}/1`, { user_id: member.user.id })
      expectError(await member.as('DELETE', `/api/callings/${calling.id}/1`), 403)
      await admin('PUT', `/api/callings/${calling.id}/permissions`, { permissions: ['callings.manage'] })
      assert.equal((await member.as('GET', '/api/auth/me')).json().permissions.includes('callings.manage'), true)
      // The member may now release even their own slot — and then loses the permission.
      assert.equal((await member.as('DELETE', `/api/callings/${calling.id}/1`)).statusCode, 204)
      expectError(await member.as('DELETE', `/api/callings/${calling.id}/1`), 403)
    })
  })
})
