import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../test/harness.ts'
import { signedIn } from '../../test/factories.ts'

describe('speaking topics', () => {
  const t = useTestApp()
  let manager: Awaited<ReturnType<typeof signedIn>>
  let reader: Awaited<ReturnType<typeof signedIn>>

  it('setup', async () => {
    manager = await signedIn(t, { permissions: ['speaking.manage'] })
    reader = await signedIn(t)
  })

  it('GET /speaking/topics/{year} returns 401 without a token and [] for a year without topics', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/speaking/topics/2026' })).statusCode, 401)
    const res = await reader.as('GET', '/api/speaking/topics/2026')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), [])
  })

  it('PUT /speaking/topics/{year}/{month} sets a topic (200) with or without a reference', async () => {
    const a = await manager.as('PUT', '/api/speaking/topics/2026/5', { topic: 'Service', reference: 'Mosiah 2:17' })
    assert.equal(a.statusCode, 200)
    assert.deepEqual(a.json(), { month: 5, topic: 'Service', reference: 'Mosiah 2:17' })
    const b = await manager.as('PUT', '/api/speaking/topics/2026/1', { topic: 'Prayer' })
    assert.equal(b.statusCode, 200)
    assert.deepEqual(b.json(), { month: 1, topic: 'Prayer', reference: null })
  })

  it('any signed-in user lists the year’s topics in month order; other years are separate', async () => {
    await manager.as('PUT', '/api/speaking/topics/2027/5', { topic: 'Next year' })
    const res = await reader.as('GET', '/api/speaking/topics/2026')
    assert.deepEqual(res.json(), [
      { month: 1, topic: 'Prayer', reference: null },
      { month: 5, topic: 'Service', reference: 'Mosiah 2:17' },
    ])
    assert.deepEqual((await reader.as('GET', '/speaking/topics/2027/')).json(), [
      { month: 5, topic: 'Next year', reference: null },
    ])
  })

  it('PUT again replaces the topic and reference; topic and reference are trimmed, an empty reference is none', async () => {
    const res = await manager.as('PUT', '/api/speaking/topics/2026/5', { topic: '  Charity  ', reference: '   ' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { month: 5, topic: 'Charity', reference: null })
    const cleared = await manager.as('PUT', '/api/speaking/topics/2026/1', { topic: 'Prayer', reference: null })
    assert.deepEqual(cleared.json(), { month: 1, topic: 'Prayer', reference: null })
    assert.deepEqual(
      (await reader.as('GET', '/api/speaking/topics/2026')).json().map((x: { topic: string }) => x.topic),
      ['Prayer', 'Charity'],
    )
  })

  it('concurrent PUTs of one month leave exactly one topic', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => manager.as('PUT', '/api/speaking/topics/2028/3', { topic: `Topic ${i}` })),
    )
    assert.ok(results.every((r) => r.statusCode === 200))
    const list = (await reader.as('GET', '/api/speaking/topics/2028')).json()
    assert.equal(list.length, 1)
    assert.match(list[0].topic, /^Topic \d$/)
  })

  it('DELETE /speaking/topics/{year}/{month} removes it (204), and again is 204', async () => {
    const res = await manager.as('DELETE', '/api/speaking/topics/2026/1')
    assert.equal(res.statusCode, 204)
    assert.equal(res.body, '')
    assert.deepEqual((await reader.as('GET', '/api/speaking/topics/2026')).json(), [
      { month: 5, topic: 'Charity', reference: null },
    ])
    assert.equal((await manager.as('DELETE', '/api/speaking/topics/2026/1')).statusCode, 204)
  })

  it('PUT and DELETE return 403 without speaking.manage and change nothing', async () => {
    const put = await reader.as('PUT', '/api/speaking/topics/2026/5', { topic: 'Hijack' })
    assert.equal(put.statusCode, 403)
    assert.equal(put.json().code, 'forbidden')
    assert.equal((await reader.as('DELETE', '/api/speaking/topics/2026/5')).statusCode, 403)
    assert.deepEqual((await reader.as('GET', '/api/speaking/topics/2026')).json(), [
      { month: 5, topic: 'Charity', reference: null },
    ])
    const anonymous = await t.app.inject({ method: 'PUT', url: '/api/speaking/topics/2026/5', payload: { topic: 'x' } })
    assert.equal(anonymous.statusCode, 401)
  })

  it('returns 422 for a topic empty, blank or over 200 characters, a reference over 2,000, or a bad year/month', async () => {
    const cases: [string, unknown, string[]][] = [
      ['/api/speaking/topics/2026/5', { topic: '' }, ['body', 'topic']],
      ['/api/speaking/topics/2026/5', { topic: '    ' }, ['body', 'topic']],
      ['/api/speaking/topics/2026/5', { topic: 'x'.repeat(201) }, ['body', 'topic']],
      ['/api/speaking/topics/2026/5', {}, ['body', 'topic']],
      ['/api/speaking/topics/2026/5', { topic: 'ok', reference: 'r'.repeat(2001) }, ['body', 'reference']],
      ['/api/speaking/topics/2026/13', { topic: 'ok' }, ['path', 'month']],
      ['/api/speaking/topics/2026/0', { topic: 'ok' }, ['path', 'month']],
      ['/api/speaking/topics/1999/5', { topic: 'ok' }, ['path', 'year']],
      ['/api/speaking/topics/2101/5', { topic: 'ok' }, ['path', 'year']],
    ]
    for (const [url, body, loc] of cases) {
      const res = await manager.as('PUT', url, body)
      assert.equal(res.statusCode, 422, `${url} ${JSON.stringify(body)}`)
      assert.deepEqual(res.json().detail[0].loc, loc, `${url} ${JSON.stringify(body)}: ${res.body}`)
    }
    assert.equal((await manager.as('DELETE', '/api/speaking/topics/2026/13')).statusCode, 422)
    assert.equal((await reader.as('GET', '/api/speaking/topics/abc')).statusCode, 422)
  })

  it('the limits themselves are accepted: 200-character topic, 2,000-character reference', async () => {
    const topic = 't'.repeat(200)
    const reference = 'r'.repeat(2000)
    const res = await manager.as('PUT', '/api/speaking/topics/2100/12', { topic, reference })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { month: 12, topic, reference })
    assert.equal((await manager.as('PUT', '/api/speaking/topics/2000/1', { topic: 'é'.repeat(200) })).statusCode, 200)
  })
})
