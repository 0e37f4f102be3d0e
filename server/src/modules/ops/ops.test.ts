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

  it('sends helmet’s headers on every response; no HSTS on plain http', async () => {
    const res = await plain.app.inject({ method: 'GET', url: '/api/health' })
    assert.equal(res.headers['x-content-type-options'], 'nosniff')
    assert.match(String(res.headers['content-security-policy']), /default-src 'self'/)
    assert.doesNotMatch(String(res.headers['content-security-policy']), /upgrade-insecure-requests/)
    assert.equal(res.headers['strict-transport-security'], undefined)
  })

  it('adds HSTS and upgrade-insecure-requests when served over https (COOKIE_SECURE=true)', async () => {
    const res = await secure.app.inject({ method: 'GET', url: '/api/health' })
    assert.match(String(res.headers['strict-transport-security']), /max-age=/)
    assert.match(String(res.headers['content-security-policy']), /upgrade-insecure-requests/)
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
