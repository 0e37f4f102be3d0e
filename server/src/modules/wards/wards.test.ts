import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { sql } from 'kysely'
import type { Calling, CallingHistoryEntry, Ward } from '@stake/contract'
import { useTestApp } from '../../test/harness.ts'
import { ALL_PERMISSIONS, createUser, injectAs, signedIn, unique } from '../../test/factories.ts'
import { expectError, locs, systemCallingId, type As } from '../../test/callings.fixtures.ts'

describe('wards (docs/api-reference.md §6)', () => {
  const t = useTestApp()
  let admin: As
  let wardManager: As // wards.manage only
  let reader: As
  let bishopCalling: number
  const anonymous: As = (method, url, payload) => injectAs(t, null)(method, url, payload)

  before(async () => {
    admin = (await signedIn(t, { permissions: ALL_PERMISSIONS })).as
    wardManager = (await signedIn(t, { permissions: ['wards.manage'] })).as
    reader = (await signedIn(t)).as
    bishopCalling = await systemCallingId(t, 'bishop')
  })

  const makeWard = async (body: Record<string, unknown> = {}, as: As = admin): Promise<Ward> => {
    const res = await as('POST', '/api/wards/', { name: unique('Ward '), start_time: 600, ...body })
    assert.equal(res.statusCode, 201, res.body)
    return res.json()
  }
  const bishopSlots = async () => {
    const calling: Calling = (await reader('GET', `/api/callings/${bishopCalling}`)).json()
    return calling
  }

  describe('reads are public', () => {
    it('GET /wards/ and /wards/{id} answer anonymous callers (and ignore a bad token)', async () => {
      const ward = await makeWard({ name: 'Public Read Ward', start_time: 540 })
      const list = await anonymous('GET', '/api/wards/')
      assert.equal(list.statusCode, 200)
      assert.ok((list.json() as Ward[]).some((w) => w.id === ward.id))
      const one = await anonymous('GET', `/wards/${ward.id}`)
      assert.deepEqual(one.json(), {
        id: ward.id,
        name: 'Public Read Ward',
        bishop_id: null,
        start_time: 540,
        speaking_sunday: 1,
      })
      const bad = await t.app.inject({
        method: 'GET',
        url: `/api/wards/${ward.id}`,
        headers: { authorization: 'Bearer nope' },
      })
      assert.equal(bad.statusCode, 200)
    })

    it('lists wards in id order', async () => {
      const a = await makeWard({ name: unique('zzz ') })
      const b = await makeWard({ name: unique('aaa ') })
      const ids = (await anonymous('GET', '/api/wards')).json().map((w: Ward) => w.id)
      assert.ok(ids.indexOf(a.id) < ids.indexOf(b.id))
      assert.deepEqual(
        [...ids].sort((x: number, y: number) => x - y),
        ids,
      )
    })

    it('returns 404 for an unknown ward and 422 for a bad id', async () => {
      expectError(await anonymous('GET', '/api/wards/99999999'), 404, 'not_found')
      assert.deepEqual(locs(await anonymous('GET', '/api/wards/x')), ['path.ward_id'])
    })
  })

  describe('create', () => {
    it('returns 201 with the ward and adds its Bishop slot (slot_id = ward id), raising max_slots', async () => {
      const prior = await bishopSlots()
      const res = await wardManager('POST', '/api/wards/', { name: '  Riverside Ward  ', start_time: 0 })
      assert.equal(res.statusCode, 201, res.body)
      const ward: Ward = res.json()
      assert.deepEqual(ward, {
        id: ward.id,
        name: 'Riverside Ward',
        bishop_id: null,
        start_time: 0,
        speaking_sunday: 1,
      })
      const after = await bishopSlots()
      assert.equal(after.max_slots, prior.max_slots + 1)
      assert.equal(after.slots.length, after.max_slots)
      assert.deepEqual(
        after.slots.find((s) => s.slot_id === ward.id),
        { slot_id: ward.id, filled: false, user_id: null, user: null, ward_id: ward.id, set_apart: null },
      )
    })

    it('accepts start_time 0 and 1439; refuses -1, 1440, 10.5, a string or none (422 at body.start_time)', async () => {
      assert.equal((await makeWard({ start_time: 1439 })).start_time, 1439)
      for (const start_time of [-1, 1440, 10.5, 'ten']) {
        assert.deepEqual(
          locs(await admin('POST', '/api/wards/', { name: unique(), start_time })),
          ['body.start_time'],
          String(start_time),
        )
      }
      assert.deepEqual(locs(await admin('POST', '/api/wards/', { name: unique() })), ['body.start_time'])
      assert.deepEqual(locs(await admin('POST', '/api/wards/', { name: '  ', start_time: 2000 })).sort(), [
        'body.name',
        'body.start_time',
      ])
    })

    it('returns 409 duplicate_name for a name in use, whatever its case and spaces', async () => {
      const ward = await makeWard()
      expectError(
        await admin('POST', '/api/wards/', { name: ` ${ward.name.toUpperCase()} `, start_time: 600 }),
        409,
        'duplicate_name',
      )
    })

    it('accepts a 100-character name whose lower case is longer (İ → i̇), and still finds its duplicate (201, then 409)', async () => {
      // 'İ'.toLowerCase() is two characters: the uniqueness key of a valid name may be longer than the name.
      await makeWard({ name: 'İ'.repeat(99) + 'W' })
      expectError(
        await admin('POST', '/api/wards/', { name: 'İ'.repeat(99) + 'w', start_time: 600 }),
        409,
        'duplicate_name',
      )
      const other = await makeWard()
      const renamed = await admin('PUT', `/api/wards/${other.id}`, { name: 'İ'.repeat(100), start_time: 600 })
      assert.equal(renamed.statusCode, 200, renamed.body)
    })

    it('needs wards.manage: 401 anonymous, 403 without', async () => {
      expectError(await anonymous('POST', '/api/wards/', { name: unique(), start_time: 600 }), 401)
      expectError(await reader('POST', '/api/wards/', { name: unique(), start_time: 600 }), 403, 'forbidden')
    })

    it('bishop_id seats the bishop: returned, on /auth/me with the ward, and in the history', async () => {
      const bishop = await signedIn(t)
      const ward = await makeWard({ bishop_id: bishop.user.id })
      assert.equal(ward.bishop_id, bishop.user.id)
      assert.equal((await reader('GET', `/api/wards/${ward.id}`)).json().bishop_id, bishop.user.id)
      const me = (await bishop.as('GET', '/api/auth/me')).json()
      assert.deepEqual(me.callings, [
        { calling_id: bishopCalling, name: 'Bishop', key: 'bishop', slot_id: ward.id, ward_id: ward.id },
      ])
      assert.deepEqual(me.permissions, ['proposals.submit'])
      const history: CallingHistoryEntry[] = (await reader('GET', `/api/callings/${bishopCalling}/history`)).json()
      assert.ok(history.some((h) => h.slot_id === ward.id && h.user_id === bishop.user.id && h.to === null))
    })

    it('an unknown or inactive bishop is 422 at body.bishop_id and creates nothing', async () => {
      const inactive = await createUser(t, { active: false })
      const name = unique('Never Ward ')
      assert.deepEqual(locs(await admin('POST', '/api/wards/', { name, start_time: 600, bishop_id: 99999999 })), [
        'body.bishop_id',
      ])
      assert.deepEqual(locs(await admin('POST', '/api/wards/', { name, start_time: 600, bishop_id: inactive.id })), [
        'body.bishop_id',
      ])
      const names = (await anonymous('GET', '/api/wards/')).json().map((w: Ward) => w.name)
      assert.ok(!names.includes(name))
    })

    it('a user who is already bishop of another ward is 409', async () => {
      const bishop = await createUser(t)
      await makeWard({ bishop_id: bishop.id })
      expectError(
        await admin('POST', '/api/wards/', { name: unique(), start_time: 600, bishop_id: bishop.id }),
        409,
        'conflict',
      )
    })

    it("seating a bishop needs the Bishop calling's grant (proposals.submit) and proposals.view (S3): 403 otherwise", async () => {
      const bishop = await createUser(t)
      expectError(
        await wardManager('POST', '/api/wards/', { name: unique(), start_time: 600, bishop_id: bishop.id }),
        403,
        'forbidden',
      )
      const submitOnly = (await signedIn(t, { permissions: ['wards.manage', 'proposals.submit'] })).as
      expectError(
        await submitOnly('POST', '/api/wards/', { name: unique(), start_time: 600, bishop_id: bishop.id }),
        403,
        'forbidden',
      )
      const { as } = await signedIn(t, { permissions: ['wards.manage', 'proposals.submit', 'proposals.view'] })
      assert.equal((await makeWard({ bishop_id: bishop.id }, as)).bishop_id, bishop.id)
    })
  })

  describe('update', () => {
    it('changes name and start_time; an omitted bishop_id leaves the bishop', async () => {
      const bishop = await createUser(t)
      const ward = await makeWard({ bishop_id: bishop.id })
      const res = await wardManager('PUT', `/api/wards/${ward.id}`, { name: ' Renamed Ward ', start_time: 1439 })
      assert.equal(res.statusCode, 200, res.body)
      assert.deepEqual(res.json(), {
        id: ward.id,
        name: 'Renamed Ward',
        bishop_id: bishop.id,
        start_time: 1439,
        speaking_sunday: 1,
      })
      // Same bishop again is no change, so no grant is needed.
      const same = await wardManager('PUT', `/api/wards/${ward.id}`, {
        name: 'Renamed Ward',
        start_time: 60,
        bishop_id: bishop.id,
      })
      assert.equal(same.statusCode, 200, same.body)
    })

    it('bishop_id fills, replaces and (null) releases the Bishop slot, each change in the history', async () => {
      const [first, second] = [await createUser(t), await createUser(t)]
      const ward = await makeWard()
      const put = (bishop_id: number | null) =>
        admin('PUT', `/api/wards/${ward.id}`, { name: ward.name, start_time: 600, bishop_id })
      assert.equal((await put(first.id)).json().bishop_id, first.id)
      t.clock.advance(10)
      assert.equal((await put(second.id)).json().bishop_id, second.id)
      t.clock.advance(10)
      assert.equal((await put(null)).json().bishop_id, null)
      assert.equal((await reader('GET', `/api/wards/${ward.id}`)).json().bishop_id, null)
      const history: CallingHistoryEntry[] = (await reader('GET', `/api/callings/${bishopCalling}/history`)).json()
      const rows = history.filter((h) => h.slot_id === ward.id)
      assert.deepEqual(
        rows.map((h) => h.user_id),
        [first.id, second.id],
      )
      assert.ok(rows.every((h) => h.to !== null))
      assert.equal(rows[0]!.to, rows[1]!.from)
    })

    it('a bishop seated through the callings API shows as bishop_id, and a release there clears it', async () => {
      const ward = await makeWard()
      const user = await createUser(t)
      assert.equal(
        (await admin('PUT', `/api/callings/${bishopCalling}/${ward.id}`, { user_id: user.id })).statusCode,
        200,
      )
      assert.equal((await reader('GET', `/api/wards/${ward.id}`)).json().bishop_id, user.id)
      assert.equal((await admin('DELETE', `/api/callings/${bishopCalling}/${ward.id}`)).statusCode, 204)
      assert.equal((await reader('GET', `/api/wards/${ward.id}`)).json().bishop_id, null)
    })

    it('a wards.manage-only user can neither seat nor release a bishop (403, S3)', async () => {
      const bishop = await createUser(t)
      const ward = await makeWard({ bishop_id: bishop.id })
      const other = await createUser(t)
      expectError(
        await wardManager('PUT', `/api/wards/${ward.id}`, { name: ward.name, start_time: 600, bishop_id: other.id }),
        403,
        'forbidden',
      )
      assert.equal((await reader('GET', `/api/wards/${ward.id}`)).json().bishop_id, bishop.id)
      expectError(
        await wardManager('PUT', `/api/wards/${ward.id}`, { name: ward.name, start_time: 600, bishop_id: null }),
        403,
        'forbidden',
      )
      assert.equal((await reader('GET', `/api/wards/${ward.id}`)).json().bishop_id, bishop.id)
      const released = await admin('PUT', `/api/wards/${ward.id}`, {
        name: ward.name,
        start_time: 600,
        bishop_id: null,
      })
      assert.equal(released.json().bishop_id, null)
    })

    it('returns 409 duplicate_name, 422 for bad fields, 404 for an unknown ward and 403 without wards.manage', async () => {
      const [one, two] = [await makeWard(), await makeWard()]
      expectError(
        await admin('PUT', `/api/wards/${one.id}`, { name: two.name.toLowerCase(), start_time: 600 }),
        409,
        'duplicate_name',
      )
      assert.deepEqual(locs(await admin('PUT', `/api/wards/${one.id}`, { name: one.name, start_time: 1440 })), [
        'body.start_time',
      ])
      assert.deepEqual(
        locs(await admin('PUT', `/api/wards/${one.id}`, { name: one.name, start_time: 1, bishop_id: 99999999 })),
        ['body.bishop_id'],
      )
      expectError(await admin('PUT', '/api/wards/99999999', { name: unique(), start_time: 600 }), 404, 'not_found')
      expectError(await reader('PUT', `/api/wards/${one.id}`, { name: one.name, start_time: 600 }), 403)
      // A refused update changes nothing.
      assert.deepEqual((await reader('GET', `/api/wards/${one.id}`)).json(), one)
    })
  })

  describe('delete', () => {
    it('returns 204, removes the Bishop slot and lowers max_slots; then 404', async () => {
      const ward = await makeWard()
      const prior = await bishopSlots()
      const res = await wardManager('DELETE', `/api/wards/${ward.id}`)
      assert.equal(res.statusCode, 204)
      assert.equal(res.body, '')
      const after = await bishopSlots()
      assert.equal(after.max_slots, prior.max_slots - 1)
      assert.ok(!after.slots.some((s) => s.slot_id === ward.id))
      expectError(await anonymous('GET', `/api/wards/${ward.id}`), 404)
      expectError(await wardManager('DELETE', `/api/wards/${ward.id}`), 404)
    })

    it('with a seated bishop: 204, the bishop loses the calling and the holding is closed in the history', async () => {
      const bishop = await signedIn(t)
      const ward = await makeWard({ bishop_id: bishop.user.id })
      // Deleting the ward unseats its bishop: that needs the seat's powers (S3).
      expectError(await wardManager('DELETE', `/api/wards/${ward.id}`), 403, 'forbidden')
      assert.equal((await admin('DELETE', `/api/wards/${ward.id}`)).statusCode, 204)
      const me = (await bishop.as('GET', '/api/auth/me')).json()
      assert.deepEqual(me.callings, [])
      assert.deepEqual(me.permissions, [])
      const history: CallingHistoryEntry[] = (await reader('GET', `/api/callings/${bishopCalling}/history`)).json()
      const row = history.find((h) => h.slot_id === ward.id)!
      assert.equal(row.user_id, bishop.user.id)
      assert.notEqual(row.to, null)
    })

    it('returns 409 in_use while another table refers to the ward, 204 once nothing does', async () => {
      // Stands in for proposals and speaking overrides: a foreign key without cascade.
      await sql`CREATE TABLE ward_refs_test (id integer PRIMARY KEY, ward_id integer NOT NULL REFERENCES wards(id))`.execute(
        t.database.db,
      )
      const bishop = await createUser(t)
      const ward = await makeWard({ bishop_id: bishop.id })
      await sql`INSERT INTO ward_refs_test (id, ward_id) VALUES (1, ${ward.id})`.execute(t.database.db)
      expectError(await admin('DELETE', `/api/wards/${ward.id}`), 409, 'in_use')
      // Nothing changed: the ward and its bishop are still there.
      assert.deepEqual((await reader('GET', `/api/wards/${ward.id}`)).json(), ward)
      await sql`DELETE FROM ward_refs_test`.execute(t.database.db)
      assert.equal((await admin('DELETE', `/api/wards/${ward.id}`)).statusCode, 204)
    })

    it('returns 409 in_use while a proposal refers to the ward, 204 once the proposal is gone', async () => {
      const ward = await makeWard()
      const proposal = await admin('POST', '/api/calling-kanban/proposals', {
        fname: 'Pat',
        lname: 'Proposed',
        proposed_calling: 'Ward Clerk',
        ward_id: ward.id,
      })
      assert.equal(proposal.statusCode, 201, proposal.body)
      expectError(await admin('DELETE', `/api/wards/${ward.id}`), 409, 'in_use')
      assert.equal((await anonymous('GET', `/api/wards/${ward.id}`)).statusCode, 200)
      assert.equal((await admin('DELETE', `/api/calling-kanban/proposals/${proposal.json().id}`)).statusCode, 204)
      assert.equal((await admin('DELETE', `/api/wards/${ward.id}`)).statusCode, 204)
    })

    it('needs wards.manage', async () => {
      const ward = await makeWard()
      expectError(await reader('DELETE', `/api/wards/${ward.id}`), 403)
      expectError(await anonymous('DELETE', `/api/wards/${ward.id}`), 401)
    })
  })

  it("concurrent ward creations keep the Bishop calling's max_slots equal to its slot count", async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, () => admin('POST', '/api/wards/', { name: unique('Par '), start_time: 600 })),
    )
    assert.deepEqual(
      results.map((r) => r.statusCode),
      [201, 201, 201, 201],
    )
    const calling = await bishopSlots()
    assert.equal(calling.max_slots, calling.slots.length)
  })

  it('concurrent PUTs seating two bishops in one ward leave one holder and a consistent history', async () => {
    const ward = await makeWard()
    const [one, two] = [await createUser(t), await createUser(t)]
    const results = await Promise.all([
      admin('PUT', `/api/callings/${bishopCalling}/${ward.id}`, { user_id: one.id }),
      admin('PUT', `/api/callings/${bishopCalling}/${ward.id}`, { user_id: two.id }),
    ])
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 409])
    const holder = (await reader('GET', `/api/wards/${ward.id}`)).json().bishop_id
    assert.ok(holder === one.id || holder === two.id)
    const history: CallingHistoryEntry[] = (await reader('GET', `/api/callings/${bishopCalling}/history`)).json()
    assert.deepEqual(
      history.filter((h) => h.slot_id === ward.id).map((h) => h.user_id),
      [holder],
    )
  })
})
