import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { describe, it } from 'node:test'
import { useTestApp } from '../../test/harness.ts'
import { ALL_PERMISSIONS, signedIn } from '../../test/factories.ts'

/** Every log line the app writes, as text (the secret must never be in one). */
const logged: string[] = []
const stream = new Writable({
  write(chunk, _enc, done) {
    logged.push(chunk.toString())
    done()
  },
})

const PUBLIC_URL = 'https://93.184.216.34/hooks/stake'

describe('webhooks: management (WEBHOOK_ALLOW_PRIVATE off)', () => {
  const t = useTestApp({}, { logger: { level: 'info', stream } })
  const manager = () => signedIn(t, { permissions: ['proposals.manage'] })

  it('creates a webhook: 201 with the secret once; GET never shows it again', async () => {
    const { as } = await manager()
    const res = await as('POST', '/api/webhooks', { url: PUBLIC_URL, events: ['stage_changed', 'declined'] })
    assert.equal(res.statusCode, 201, res.body)
    const created = res.json()
    assert.match(created.secret, /^whsec_[A-Za-z0-9_-]{40,}$/)
    assert.equal(created.format, 'json')
    assert.equal(created.include_names, false)
    assert.deepEqual(created.events, ['declined', 'stage_changed'])

    const list = await as('GET', '/api/webhooks')
    assert.equal(list.statusCode, 200)
    const mine = list.json().find((w: { id: number }) => w.id === created.id)
    assert.ok(mine)
    assert.equal('secret' in mine, false)
    assert.ok(!list.body.includes(created.secret))

    const put = await as('PUT', `/api/webhooks/${created.id}`, {
      url: PUBLIC_URL,
      events: ['comment'],
      format: 'slack',
    })
    assert.equal(put.statusCode, 200, put.body)
    assert.equal('secret' in put.json(), false)
    assert.deepEqual(put.json().events, ['comment'])
    assert.equal(put.json().format, 'slack')

    const deliveries = await as('GET', `/api/webhooks/${created.id}/deliveries`)
    assert.ok(!deliveries.body.includes(created.secret))
    assert.ok(!logged.join('').includes(created.secret), 'the secret is in no log line')
  })

  it('refuses non-http(s) URLs, private and loopback addresses and names resolving to them with 422', async () => {
    const { as } = await manager()
    for (const url of [
      'ftp://93.184.216.34/x',
      'javascript:alert(1)',
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://10.0.0.5/hook',
      'http://192.168.1.10/hook',
      'http://169.254.169.254/latest',
      'http://100.64.1.1/hook',
      'http://[fd00::1]/hook',
      'http://[fe80::1]/hook',
      'http://224.0.0.1/hook',
      'http://0.0.0.0/hook',
    ]) {
      const res = await as('POST', '/api/webhooks', { url, events: ['comment'] })
      assert.equal(res.statusCode, 422, `${url}: ${res.body}`)
      assert.deepEqual(res.json().detail[0].loc, ['body', 'url'])
    }
    const created = await as('POST', '/api/webhooks', { url: PUBLIC_URL, events: ['comment'] })
    const put = await as('PUT', `/api/webhooks/${created.json().id}`, {
      url: 'http://127.0.0.1/x',
      events: ['comment'],
    })
    assert.equal(put.statusCode, 422)
  })

  it('validates the body: events known and non-empty, format known, types strict', async () => {
    const { as } = await manager()
    const bad = [
      { url: PUBLIC_URL, events: [] },
      { url: PUBLIC_URL, events: ['vote_needed'] },
      { url: PUBLIC_URL, events: ['comment'], format: 'xml' },
      { url: PUBLIC_URL, events: ['comment'], include_names: 'true' },
      { events: ['comment'] },
      { url: 12, events: ['comment'] },
    ]
    for (const body of bad)
      assert.equal((await as('POST', '/api/webhooks', body)).statusCode, 422, JSON.stringify(body))
  })

  it('requires proposals.manage on every route (403), even with every other permission', async () => {
    const { as: mgr } = await manager()
    const id = (await mgr('POST', '/api/webhooks', { url: PUBLIC_URL, events: ['comment'] })).json().id
    const { as } = await signedIn(t, { permissions: ALL_PERMISSIONS.filter((p) => p !== 'proposals.manage') })
    const body = { url: PUBLIC_URL, events: ['comment'] }
    for (const [method, url, payload] of [
      ['GET', '/api/webhooks'],
      ['POST', '/api/webhooks', body],
      ['PUT', `/api/webhooks/${id}`, body],
      ['DELETE', `/api/webhooks/${id}`],
      ['POST', `/api/webhooks/${id}/test`],
      ['GET', `/api/webhooks/${id}/deliveries`],
    ] as const) {
      const res = await as(method, url, payload)
      assert.equal(res.statusCode, 403, `${method} ${url}`)
      assert.equal(res.json().code, 'forbidden')
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/webhooks' })).statusCode, 401)
  })

  it('answers 404 for an unknown webhook on every route with an id', async () => {
    const { as } = await manager()
    const body = { url: PUBLIC_URL, events: ['comment'] }
    for (const [method, url, payload] of [
      ['PUT', '/api/webhooks/999999', body],
      ['DELETE', '/api/webhooks/999999'],
      ['POST', '/api/webhooks/999999/test'],
      ['GET', '/api/webhooks/999999/deliveries'],
    ] as const) {
      const res = await as(method, url, payload)
      assert.equal(res.statusCode, 404, `${method} ${url}`)
      assert.equal(res.json().code, 'not_found')
    }
  })

  it('deletes a webhook (204), then it is gone (404); the root alias works too', async () => {
    const { as } = await manager()
    const id = (await as('POST', '/webhooks', { url: PUBLIC_URL, events: ['comment'] })).json().id
    assert.equal((await as('DELETE', `/webhooks/${id}`)).statusCode, 204)
    assert.equal((await as('DELETE', `/api/webhooks/${id}`)).statusCode, 404)
    assert.ok(!(await as('GET', '/api/webhooks')).json().some((w: { id: number }) => w.id === id))
  })

  it('documents the routes and the event kinds in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json()
    assert.ok(doc.paths['/api/webhooks/'] || doc.paths['/api/webhooks'])
    assert.ok(doc.paths['/api/webhooks/{webhook_id}/deliveries'])
    assert.ok(JSON.stringify(doc).includes('interview_assigned'))
  })
})
