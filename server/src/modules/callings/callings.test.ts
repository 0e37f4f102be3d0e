import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { Calling } from '@stake/contract'
import { useTestApp } from '../../test/harness.ts'
import { ALL_PERMISSIONS, createUser, injectAs, signedIn, unique } from '../../test/factories.ts'
import { expectError, locs, makeCalling, systemCallingId, type As } from '../../test/callings.fixtures.ts'

describe('callings (docs/api-reference.md §5)', () => {
  const t = useTestApp()
  let admin: As
  let manager: As // callings.manage only
  let reader: As // signed in, no permission
  const anonymous: As = (method, url, payload) => injectAs(t, null)(method, url, payload)

  before(async () => {
    admin = (
      await signedIn(t, {
        permissions: ALL_PERMISSIONS,
      })
    ).as
    manager = (await signedIn(t, { permissions: ['callings.manage'] })).as
    reader = (await signedIn(t)).as
  })

  describe('create', () => {
    it('returns 201 with the calling: trimmed name, no key, one empty slot, private by default', async () => {
      const name = unique('Ward Mission Leader ')
      const res = await manager('POST', '/api/callings/', { name: `  ${name}  ` })
      assert.equal(res.statusCode, 201, res.body)
      const calling: Calling = res.json()
      assert.equal(calling.name, name)
      assert.equal(calling.key, null)
      assert.equal(calling.is_public, false)
      assert.equal(calling.system_defined, false)
      assert.equal(calling.max_slots, 1)
      assert.deepEqual(calling.permissions, [])
      assert.deepEqual(calling.slots, [
        { slot_id: 1, filled: false, user_id: null, user: null, ward_id: null, set_apart: null },
      ])
      assert.match(calling.created_at, /Z$/)
    })

    it('creates max_slots empty slots numbered 1..max_slots, with the given grants', async () => {
      const calling = await makeCalling(admin, {
        max_slots: 3,
        is_public: true,
        permissions: ['proposals.view', 'proposals.submit'],
      })
      assert.deepEqual(
        calling.slots.map((s) => s.slot_id),
        [1, 2, 3],
      )
      assert.deepEqual(calling.permissions, ['proposals.submit', 'proposals.view'])
      assert.equal(calling.is_public, true)
    })

    it('returns 401 anonymously and 403 without callings.manage', async () => {
      expectError(await anonymous('POST', '/api/callings/', { name: unique() }), 401)
      expectError(await reader('POST', '/api/callings/', { name: unique() }), 403, 'forbidden')
    })

    it('returns 422 for a blank, empty, too long or missing name and bad max_slots, listing every field', async () => {
      for (const name of ['', '   ', 'x'.repeat(101)]) {
        assert.deepEqual(locs(await manager('POST', '/api/callings/', { name })), ['body.name'], JSON.stringify(name))
      }
      assert.deepEqual(locs(await manager('POST', '/api/callings/', { max_slots: 0, permissions: ['nope'] })).sort(), [
        'body.max_slots',
        'body.name',
        'body.permissions.0',
      ])
      assert.deepEqual(locs(await manager('POST', '/api/callings/', { name: unique(), max_slots: 101 })), [
        'body.max_slots',
      ])
    })

    it('accepts a 100-character name', async () => {
      const name = unique().padEnd(100, 'n')
      const res = await manager('POST', '/api/callings/', { name })
      assert.equal(res.statusCode, 201, res.body)
    })

    it('accepts a 100-character name whose lower case is longer (İ → i̇), and still finds its duplicate (201, then 409)', async () => {
      // 'İ'.toLowerCase() is two characters: the uniqueness key of a valid name may be longer than the name.
      const name = 'İ'.repeat(99) + 'X'
      const res = await manager('POST', '/api/callings/', { name })
      assert.equal(res.statusCode, 201, res.body)
      expectError(await manager('POST', '/api/callings/', { name: 'İ'.repeat(99) + 'x' }), 409, 'duplicate_name')
      const other = await makeCalling(manager)
      const renamed = await manager('PUT', `/api/callings/${other.id}`, { name: 'İ'.repeat(100) })
      assert.equal(renamed.statusCode, 200, renamed.body)
    })

    it('returns 409 duplicate_name for a name used by another calling, whatever its case and spaces', async () => {
      const calling = await makeCalling(manager)
      expectError(
        await manager('POST', '/api/callings/', { name: ` ${calling.name.toUpperCase()} ` }),
        409,
        'duplicate_name',
      )
      expectError(await manager('POST', '/api/callings/', { name: 'stake president' }), 409, 'duplicate_name')
    })

    it('returns 403 when the new calling would grant a permission the caller does not hold', async () => {
      expectError(
        await manager('POST', '/api/callings/', { name: unique(), permissions: ['users.manage'] }),
        403,
        'forbidden',
      )
      const ok = await manager('POST', '/api/callings/', { name: unique(), permissions: ['callings.manage'] })
      assert.equal(ok.statusCode, 201, ok.body)
    })
  })

  describe('visibility', () => {
    let hidden: Calling
    let shown: Calling
    before(async () => {
      hidden = await makeCalling(admin, { is_public: false })
      shown = await makeCalling(admin, { is_public: true })
      const holder = await createUser(t, { fname: 'Holly', lname: 'Holder' })
      const res = await admin('PUT', `/api/callings/${shown.id}/1`, { user_id: holder.id })
      assert.equal(res.statusCode, 200, res.body)
    })

    it('anonymous callers list only public callings, with holders as names only', async () => {
      const res = await anonymous('GET', '/api/callings/?limit=200')
      assert.equal(res.statusCode, 200)
      const list: Calling[] = res.json()
      assert.ok(list.every((c) => c.is_public))
      assert.ok(!list.some((c) => c.id === hidden.id))
      const mine = list.find((c) => c.id === shown.id)!
      assert.deepEqual(mine.slots[0], {
        slot_id: 1,
        filled: true,
        user_id: null,
        user: { fname: 'Holly', lname: 'Holder' },
        ward_id: null,
        set_apart: null,
      })
      assert.equal(res.headers['x-total-count'], String(list.length))
    })

    it('anonymous callers get 404 for a private calling and its slots, 200 for a public one', async () => {
      expectError(await anonymous('GET', `/api/callings/${hidden.id}`), 404, 'not_found')
      expectError(await anonymous('GET', `/api/callings/${hidden.id}/1`), 404, 'not_found')
      expectError(await anonymous('GET', `/api/callings/${hidden.id}/permissions`), 404, 'not_found')
      const res = await anonymous('GET', `/callings/${shown.id}`)
      assert.equal(res.statusCode, 200)
      assert.equal(res.json().slots[0].user_id, null)
      const slot = await anonymous('GET', `/api/callings/${shown.id}/1`)
      assert.deepEqual(slot.json().user, { fname: 'Holly', lname: 'Holder' })
    })

    it('anonymous ?is_public=false is an empty page', async () => {
      const res = await anonymous('GET', '/api/callings/?is_public=false')
      assert.deepEqual(res.json(), [])
      assert.equal(res.headers['x-total-count'], '0')
    })

    it('signed-in callers see private callings and holders with their ids', async () => {
      const one = await reader('GET', `/api/callings/${hidden.id}`)
      assert.equal(one.statusCode, 200)
      const list: Calling[] = (await reader('GET', '/api/callings/?limit=200')).json()
      assert.ok(list.some((c) => c.id === hidden.id))
      const filled = list.find((c) => c.id === shown.id)!.slots[0]!
      assert.equal(typeof filled.user_id, 'number')
      assert.equal(filled.user?.id, filled.user_id)
    })

    it('a bad token on an optional-auth route is 401, not anonymous', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/callings/',
        headers: { authorization: 'Bearer nope' },
      })
      expectError(res, 401)
    })
  })

  describe('list filters and pagination', () => {
    const tag = unique('zq').toLowerCase()
    let a: Calling, b: Calling, c: Calling
    before(async () => {
      // b sorts first by name, a first by id.
      a = await makeCalling(admin, { name: `${tag} Charlie`, is_public: true, max_slots: 1 })
      b = await makeCalling(admin, { name: `${tag} alpha`, is_public: false, max_slots: 2 })
      c = await makeCalling(admin, { name: `${tag} Bravo 100%_`, is_public: true, max_slots: 1 })
      const user = await createUser(t)
      assert.equal((await admin('PUT', `/api/callings/${a.id}/1`, { user_id: user.id })).statusCode, 200)
    })
    const ids = async (query: string, as: As = reader) => {
      const res = await as('GET', `/api/callings/?q=${tag}&${query}`)
      assert.equal(res.statusCode, 200, res.body)
      return (res.json() as Calling[]).map((x) => x.id)
    }

    it('q matches the name case-insensitively; % and _ are literal', async () => {
      assert.deepEqual(await ids(''), [b.id, c.id, a.id])
      const res = await reader('GET', `/api/callings/?q=${encodeURIComponent(`${tag.toUpperCase()} BRAVO 100%_`)}`)
      assert.deepEqual(
        res.json().map((x: Calling) => x.id),
        [c.id],
      )
      assert.deepEqual((await reader('GET', `/api/callings/?q=${tag}%25`)).json(), [])
    })

    it('sort=id orders by id, sort=name (the default) by name', async () => {
      assert.deepEqual(await ids('sort=id'), [a.id, b.id, c.id])
      assert.deepEqual(await ids('sort=name'), [b.id, c.id, a.id])
      assert.deepEqual(locs(await reader('GET', '/api/callings/?sort=created')), ['query.sort'])
    })

    it('filters by is_public, system_defined and vacant', async () => {
      assert.deepEqual(await ids('is_public=true'), [c.id, a.id])
      assert.deepEqual(await ids('is_public=false'), [b.id])
      assert.deepEqual(await ids('vacant=true'), [b.id, c.id])
      assert.deepEqual(await ids('vacant=false'), [a.id])
      assert.deepEqual(await ids('system_defined=true'), [])
      assert.deepEqual(await ids('system_defined=false'), [b.id, c.id, a.id])
      const system: Calling[] = (await reader('GET', '/api/callings/?system_defined=true&sort=id')).json()
      assert.deepEqual(
        system.map((x) => x.key),
        [
          'stake_president',
          'stake_first_counselor',
          'stake_second_counselor',
          'stake_executive_secretary',
          'stake_clerk',
          'high_councilor',
          'bishop',
        ],
      )
      assert.deepEqual(locs(await reader('GET', '/api/callings/?vacant=maybe')), ['query.vacant'])
    })

    it('limit and offset page through the list; X-Total-Count is the filtered total', async () => {
      const res = await reader('GET', `/api/callings/?q=${tag}&limit=1&offset=1`)
      assert.deepEqual(
        res.json().map((x: Calling) => x.id),
        [c.id],
      )
      assert.equal(res.headers['x-total-count'], '3')
    })

    it('limit=0 is an empty array with the total; an offset past the end is an empty array', async () => {
      const zero = await reader('GET', `/api/callings/?q=${tag}&limit=0`)
      assert.equal(zero.statusCode, 200)
      assert.deepEqual(zero.json(), [])
      assert.equal(zero.headers['x-total-count'], '3')
      const past = await reader('GET', `/api/callings/?q=${tag}&offset=3`)
      assert.deepEqual(past.json(), [])
      assert.equal(past.headers['x-total-count'], '3')
      const far = await reader('GET', '/api/callings/?offset=2147483647')
      assert.deepEqual(far.json(), [])
    })

    it('limit defaults to 50, allows 200 and refuses more (422), like negative values', async () => {
      for (let i = 0; i < 46; i++) await makeCalling(admin)
      const all = await reader('GET', '/api/callings/')
      assert.equal(all.json().length, 50)
      assert.ok(Number(all.headers['x-total-count']) > 50)
      assert.equal((await reader('GET', '/api/callings/?limit=200')).statusCode, 200)
      assert.deepEqual(locs(await reader('GET', '/api/callings/?limit=1000')), ['query.limit'])
      assert.deepEqual(locs(await reader('GET', '/api/callings/?limit=-1&offset=-1')).sort(), [
        'query.limit',
        'query.offset',
      ])
      assert.deepEqual(locs(await reader('GET', '/api/callings/?limit=abc')), ['query.limit'])
    })
  })

  describe('update', () => {
    it('renames, changes the public marker and keeps omitted fields; 200 with the calling', async () => {
      const calling = await makeCalling(manager, { max_slots: 2, is_public: true })
      const name = unique('Renamed ')
      const res = await manager('PUT', `/api/callings/${calling.id}`, { name: ` ${name} ` })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().name, name)
      assert.equal(res.json().is_public, true)
      assert.equal(res.json().max_slots, 2)
      const hidden = await manager('PUT', `/api/callings/${calling.id}`, { name, is_public: false })
      assert.equal(hidden.json().is_public, false)
    })

    it("keeps its own name in another case, but 409 duplicate_name for another calling's name", async () => {
      const one = await makeCalling(manager)
      const two = await makeCalling(manager)
      const same = await manager('PUT', `/api/callings/${one.id}`, { name: one.name.toUpperCase() })
      assert.equal(same.statusCode, 200, same.body)
      expectError(
        await manager('PUT', `/api/callings/${one.id}`, { name: ` ${two.name.toLowerCase()}` }),
        409,
        'duplicate_name',
      )
    })

    it('raises max_slots with empty slots; lowering below a filled slot is 409, above it removes empty slots', async () => {
      const calling = await makeCalling(manager, { max_slots: 2 })
      const up = await manager('PUT', `/api/callings/${calling.id}`, { name: calling.name, max_slots: 4 })
      assert.deepEqual(
        up.json().slots.map((s: { slot_id: number }) => s.slot_id),
        [1, 2, 3, 4],
      )
      const user = await createUser(t)
      assert.equal((await manager('PUT', `/api/callings/${calling.id}/3`, { user_id: user.id })).statusCode, 200)
      expectError(
        await manager('PUT', `/api/callings/${calling.id}`, { name: calling.name, max_slots: 2 }),
        409,
        'slot_filled',
      )
      const down = await manager('PUT', `/api/callings/${calling.id}`, { name: calling.name, max_slots: 3 })
      assert.equal(down.statusCode, 200, down.body)
      assert.equal(down.json().max_slots, 3)
      assert.deepEqual(
        down.json().slots.map((s: { slot_id: number; filled: boolean }) => [s.slot_id, s.filled]),
        [
          [1, false],
          [2, false],
          [3, true],
        ],
      )
    })

    it('returns 404 for an unknown calling and 422 for a non-integer id', async () => {
      expectError(await manager('PUT', '/api/callings/999999', { name: unique() }), 404, 'not_found')
      expectError(await manager('GET', '/api/callings/999999'), 404, 'not_found')
      assert.deepEqual(locs(await manager('GET', '/api/callings/abc')), ['path.calling_id'])
    })
  })

  describe('delete', () => {
    it('returns 204 for an unfilled calling, then 404', async () => {
      const calling = await makeCalling(manager)
      const res = await manager('DELETE', `/api/callings/${calling.id}`)
      assert.equal(res.statusCode, 204)
      assert.equal(res.body, '')
      expectError(await manager('GET', `/api/callings/${calling.id}`), 404)
      expectError(await manager('DELETE', `/api/callings/${calling.id}`), 404)
    })

    it('returns 409 while a slot is filled, 204 once it is released', async () => {
      const calling = await makeCalling(manager, { max_slots: 2 })
      const user = await createUser(t)
      await manager('PUT', `/api/callings/${calling.id}/2`, { user_id: user.id })
      expectError(await manager('DELETE', `/api/callings/${calling.id}`), 409, 'slot_filled')
      assert.equal((await manager('DELETE', `/api/callings/${calling.id}/2`)).statusCode, 204)
      assert.equal((await manager('DELETE', `/api/callings/${calling.id}`)).statusCode, 204)
    })

    it('needs callings.manage', async () => {
      const calling = await makeCalling(manager)
      expectError(await reader('DELETE', `/api/callings/${calling.id}`), 403)
      expectError(await anonymous('DELETE', `/api/callings/${calling.id}`), 401)
    })
  })

  describe('system callings', () => {
    it('cannot be renamed, resized or deleted, nor their grants edited: 403 system_defined', async () => {
      for (const key of ['stake_president', 'high_councilor', 'bishop']) {
        const id = await systemCallingId(t, key)
        expectError(await admin('PUT', `/api/callings/${id}`, { name: unique() }), 403, 'system_defined')
        expectError(
          await admin('PUT', `/api/callings/${id}`, { name: 'High Councilor', max_slots: 20 }),
          403,
          'system_defined',
        )
        expectError(await admin('DELETE', `/api/callings/${id}`), 403, 'system_defined')
        expectError(await admin('PUT', `/api/callings/${id}/permissions`, { permissions: [] }), 403, 'system_defined')
      }
    })

    it("carry the contract's default grants, slots and keys", async () => {
      const president: Calling = (
        await reader('GET', `/api/callings/${await systemCallingId(t, 'stake_president')}`)
      ).json()
      assert.equal(president.system_defined, true)
      assert.equal(president.key, 'stake_president')
      assert.equal(president.permissions.length, 7)
      assert.equal(president.max_slots, 1)
      const hc: Calling = (await reader('GET', `/api/callings/${await systemCallingId(t, 'high_councilor')}`)).json()
      assert.deepEqual(hc.permissions, ['proposals.submit', 'proposals.view'])
      assert.equal(hc.max_slots, 12)
      assert.deepEqual(
        hc.slots.map((s) => s.slot_id),
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
      )
      const perms = await anonymous('GET', `/api/callings/${await systemCallingId(t, 'bishop')}/permissions`)
      assert.deepEqual(perms.json(), { permissions: ['proposals.submit'] })
    })
  })

  describe('calling grants', () => {
    it('PUT /callings/{id}/permissions replaces the grants of a user-made calling', async () => {
      const calling = await makeCalling(admin, { permissions: ['proposals.view'] })
      const res = await admin('PUT', `/api/callings/${calling.id}/permissions`, {
        permissions: ['proposals.submit', 'speaking.manage', 'proposals.submit'],
      })
      assert.equal(res.statusCode, 200, res.body)
      assert.deepEqual(res.json(), { permissions: ['speaking.manage', 'proposals.submit'] })
      assert.deepEqual((await reader('GET', `/api/callings/${calling.id}/permissions`)).json(), res.json())
      assert.deepEqual((await reader('GET', `/api/callings/${calling.id}`)).json().permissions, res.json().permissions)
    })

    it('returns 403 when adding a permission the caller does not hold; removing one is allowed', async () => {
      const calling = await makeCalling(admin, { permissions: ['proposals.view'] })
      expectError(
        await manager('PUT', `/api/callings/${calling.id}/permissions`, {
          permissions: ['proposals.view', 'users.manage'],
        }),
        403,
        'forbidden',
      )
      expectError(
        await manager('PUT', `/api/callings/${calling.id}`, { name: calling.name, permissions: ['wards.manage'] }),
        403,
        'forbidden',
      )
      const kept = await manager('PUT', `/api/callings/${calling.id}/permissions`, {
        permissions: ['proposals.view', 'callings.manage'],
      })
      assert.equal(kept.statusCode, 200, kept.body)
      const removed = await manager('PUT', `/api/callings/${calling.id}/permissions`, { permissions: [] })
      assert.deepEqual(removed.json(), { permissions: [] })
    })

    it('PUT /callings/{id} may carry permissions too (same rules)', async () => {
      const calling = await makeCalling(admin)
      const res = await admin('PUT', `/api/callings/${calling.id}`, {
        name: calling.name,
        permissions: ['wards.manage'],
      })
      assert.deepEqual(res.json().permissions, ['wards.manage'])
    })

    it('needs callings.manage to edit, and an unknown permission is 422', async () => {
      const calling = await makeCalling(admin)
      expectError(await reader('PUT', `/api/callings/${calling.id}/permissions`, { permissions: [] }), 403)
      assert.deepEqual(locs(await admin('PUT', `/api/callings/${calling.id}/permissions`, { permissions: ['root'] })), [
        'body.permissions.0',
      ])
      expectError(await admin('PUT', '/api/callings/999999/permissions', { permissions: [] }), 404)
    })
  })

  it('documents every calling and ward route in the OpenAPI document, with 409s and 201/204', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json()
    const paths = doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>
    assert.ok(paths['/api/callings']!.post!.responses['201'])
    assert.ok(paths['/api/callings']!.post!.responses['409'])
    assert.ok(paths['/api/callings/{calling_id}']!.delete!.responses['204'])
    assert.ok(paths['/api/callings/{calling_id}/{slot_id}']!.put!.responses['409'])
    assert.ok(paths['/api/callings/{calling_id}/history']!.get)
    assert.ok(paths['/api/callings/{calling_id}/permissions']!.put)
    assert.ok(paths['/api/wards']!.post!.responses['201'])
    assert.ok(paths['/api/wards/{ward_id}']!.delete!.responses['409'])
    assert.ok(!Object.keys(paths).some((p) => p.startsWith('/callings')), 'root aliases stay hidden')
  })
})
