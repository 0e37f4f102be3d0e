import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../test/harness.ts'
import { ALL_PERMISSIONS, signedIn, unique } from '../test/factories.ts'
import { expectError, locs, makeCalling, type As } from '../test/callings.fixtures.ts'
import { createWard, submit } from '../test/proposals.fixtures.ts'

/** S1: JSON bodies are never coerced; path and query integers are plain decimal digits. */
describe('S1 strict types', () => {
  const t = useTestApp()
  let admin: As
  let adminAny: Awaited<ReturnType<typeof signedIn>>['as']
  const wardCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('wards')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )

  before(async () => {
    adminAny = (await signedIn(t, { permissions: ALL_PERMISSIONS })).as
    admin = adminAny
  })

  it('a null, a string or a number of the wrong type in a JSON body is a 422 listing every field, and nothing is written', async () => {
    const before = await wardCount()
    assert.deepEqual(locs(await admin('POST', '/api/wards/', { name: 'X', start_time: null })), ['body.start_time'])
    assert.deepEqual(locs(await admin('POST', '/api/wards/', { name: 5, start_time: 'ten' })).sort(), [
      'body.name',
      'body.start_time',
    ])
    assert.deepEqual(locs(await admin('POST', '/api/wards/', { name: 'X', start_time: '600' })), ['body.start_time'])
    assert.deepEqual(
      locs(await admin('POST', '/api/callings/', { name: unique('C'), is_public: 'true', max_slots: '2' })).sort(),
      ['body.is_public', 'body.max_slots'],
    )
    assert.deepEqual(locs(await admin('POST', '/api/callings/', { name: unique('C'), is_public: 1 })), [
      'body.is_public',
    ])
    assert.equal(await wardCount(), before)
  })

  it('path ids in hex, with a sign, an exponent or spaces never reach another record', async () => {
    let calling = await makeCalling(admin)
    while (calling.id < 16) calling = await makeCalling(admin)
    const sixteen = await admin('GET', '/api/callings/16')
    assert.equal(sixteen.statusCode, 200)
    for (const id of ['0x10', '+16', '1.6e1', '16.0', '%2016', '16%20', '0o20', '0b10000', '-16']) {
      const res = await admin('GET', `/api/callings/${id}`)
      assert.ok(res.statusCode === 422 || res.statusCode === 404, `${id}: ${res.statusCode}`)
      if (res.statusCode === 422) assert.deepEqual(locs(res), ['path.calling_id'])
    }
    // Leading zeros are still decimal digits.
    assert.equal((await admin('GET', '/api/callings/016')).json().id, 16)
  })

  it('DELETE /calling-kanban/proposals/0x10 deletes nothing', async () => {
    const ward = await createWard(t.database.db)
    let proposal = await submit(adminAny, ward)
    while (proposal.id < 16) proposal = await submit(adminAny, ward)
    expectError(await admin('DELETE', '/api/calling-kanban/proposals/0x10'), 422)
    assert.equal((await admin('GET', '/api/calling-kanban/proposals/16')).statusCode, 200)
  })

  it('query integers and booleans are strict too', async () => {
    assert.deepEqual(locs(await admin('GET', '/api/callings/?limit=0x10')), ['query.limit'])
    assert.deepEqual(locs(await admin('GET', '/api/callings/?limit=1e1&offset=-0')).sort(), [
      'query.limit',
      'query.offset',
    ])
    assert.deepEqual(locs(await admin('GET', '/api/callings/?is_public=1')), ['query.is_public'])
    assert.deepEqual(locs(await admin('GET', '/api/callings/?limit=%205')), ['query.limit'])
    const ok = await admin('GET', '/api/callings/?limit=2&offset=0&is_public=true')
    assert.equal(ok.statusCode, 200)
    assert.equal(ok.json().length, 2)
  })

  it('a "__proto__" or "constructor" key is an ignored unknown property', async () => {
    const name = unique('Proto ')
    const { token } = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const raw = (payload: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/wards/',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload,
      })
    const created = await raw(`{"__proto__":{"start_time":1},"name":"${name}","start_time":540}`)
    assert.equal(created.statusCode, 201, created.body)
    assert.equal(created.json().start_time, 540)
    const withConstructor = await raw(`{"constructor":{"prototype":{"x":1}},"name":"${name} 2","start_time":5}`)
    assert.equal(withConstructor.statusCode, 201, withConstructor.body)
    // Judged on the other fields: a missing name is still reported.
    assert.deepEqual(locs(await raw('{"__proto__":{"name":"x"},"start_time":5}')), ['body.name'])
    assert.equal(({} as Record<string, unknown>).start_time, undefined)
  })
})
