import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createTestApp, useTestApp } from '../../test/harness.ts'

describe('operations', () => {
  const t = useTestApp()

  it('GET /health and /api/health answer 200 {status: ok}, with or without a trailing slash', async () => {
    for (const url of ['/health', '/api/health', '/api/health/', '/health/']) {
      const res = await t.app.inject({ method: 'GET', url })
      assert.equal(res.statusCode, 200, url)
      assert.deepEqual(res.json(), { status: 'ok' })
    }
  })

  it('GET /ready answers 200 when the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/ready' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { status: 'ready' })
  })

  it('unknown API paths are 404 with the contract body', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' })
    assert.equal(res.statusCode, 404)
    assert.deepEqual(res.json(), { detail: 'Not found', code: 'not_found' })
  })

  it('every response carries a request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' })
    assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/)
  })
})

describe('security headers', () => {
  const plain = useTestApp()
  const secure = useTestApp({ COOKIE_SECURE: 'true' })

  it('sends helmet’s headers on pages (docs, client, 404s); no HSTS on plain http', async () => {
    const res = await plain.app.inject({ method: 'GET', url: '/docs' })
    assert.equal(res.headers['x-content-type-options'], 'nosniff')
    assert.match(String(res.headers['content-security-policy']), /default-src 'self'/)
    assert.doesNotMatch(String(res.headers['content-security-policy']), /upgrade-insecure-requests/)
    assert.equal(res.headers['strict-transport-security'], undefined)
    assert.equal(
      (await plain.app.inject({ method: 'GET', url: '/nothing' })).headers['x-content-type-options'],
      'nosniff',
    )
  })

  it('sends the short REST set on API responses, at /api and at the root aliases', async () => {
    for (const url of ['/api/health', '/health', '/api/auth/me']) {
      const res = await plain.app.inject({ method: 'GET', url })
      assert.equal(res.headers['x-content-type-options'], 'nosniff', url)
      assert.equal(res.headers['x-frame-options'], 'DENY', url)
      assert.equal(res.headers['cache-control'], 'no-store', url)
      const csp = String(res.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim())
      assert.deepEqual(csp, ["default-src 'none'", "frame-ancestors 'none'"], url)
      assert.equal(res.headers['strict-transport-security'], undefined, url)
    }
  })

  it('adds HSTS (and upgrade-insecure-requests on pages) when served over https (COOKIE_SECURE=true)', async () => {
    const api = await secure.app.inject({ method: 'GET', url: '/api/health' })
    assert.match(String(api.headers['strict-transport-security']), /max-age=/)
    const page = await secure.app.inject({ method: 'GET', url: '/docs' })
    assert.match(String(page.headers['strict-transport-security']), /max-age=/)
    assert.match(String(page.headers['content-security-policy']), /upgrade-insecure-requests/)
  })
})

describe('readiness without a database', () => {
  it('GET /ready answers 503 when the database does not answer, /health still 200', async () => {
    const t = await createTestApp()
    await t.database.close()
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' })
    assert.equal(ready.statusCode, 503)
    assert.equal(typeof ready.json().detail, 'string')
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode, 200)
    await t.close()
  })
})
