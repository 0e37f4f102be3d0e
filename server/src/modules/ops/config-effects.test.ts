import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../test/harness.ts'
import { createUser, injectAs, login } from '../../test/factories.ts'

const form = (username: string, password: string) => ({
  method: 'POST' as const,
  url: '/api/auth/login',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams({ username, password }).toString(),
})

describe('configuration that changes behaviour', () => {
  const secure = useTestApp({ COOKIE_SECURE: 'true', ACCESS_TOKEN_TTL_SECONDS: '60', JWT_SECRET: 's'.repeat(40) })
  const proxied = useTestApp({ TRUST_PROXY: '1', CORS_ORIGINS: 'https://client.example' })

  it('COOKIE_SECURE=true marks the refresh cookie Secure; ACCESS_TOKEN_TTL_SECONDS sets expires_in', async () => {
    const user = await createUser(secure)
    const res = await secure.app.inject(form(user.email, user.password))
    assert.equal(res.json().expires_in, 60)
    assert.equal(res.cookies.find((c) => c.name === 'refresh_token')!.secure, true)
  })

  it('JWT_SECRET, when set, signs the tokens (nothing is generated into the database)', async () => {
    const user = await createUser(secure)
    const { token } = await login(secure, user)
    assert.equal((await injectAs(secure, token)('GET', '/api/auth/me')).statusCode, 200)
    const stored = await secure.database.db
      .selectFrom('app_settings')
      .selectAll()
      .where('key', '=', 'jwt_secret')
      .execute()
    assert.deepEqual(stored, [])
  })

  it('without JWT_SECRET a secret is generated once and kept in the database', async () => {
    const stored = await proxied.database.db
      .selectFrom('app_settings')
      .select('value')
      .where('key', '=', 'jwt_secret')
      .execute()
    assert.equal(stored.length, 1)
    assert.ok(stored[0]!.value.length >= 43)
  })

  it('TRUST_PROXY=1 takes the client address from X-Forwarded-For (throttling per real client)', async () => {
    for (let i = 0; i < 100; i++) {
      const res = await proxied.app.inject({
        ...form(`ghost${i}@example.org`, 'wrong-password'),
        headers: { ...form('', '').headers, 'x-forwarded-for': '192.0.2.55' },
      })
      assert.equal(res.statusCode, 401)
    }
    const user = await createUser(proxied)
    const blocked = await proxied.app.inject({
      ...form(user.email, user.password),
      headers: { ...form('', '').headers, 'x-forwarded-for': '192.0.2.55' },
    })
    assert.equal(blocked.statusCode, 429)
    const other = await proxied.app.inject({
      ...form(user.email, user.password),
      headers: { ...form('', '').headers, 'x-forwarded-for': '192.0.2.56' },
    })
    assert.equal(other.statusCode, 200)
  })

  it('CORS_ORIGINS allows the listed origin with credentials and no other, and exposes the headers a client reads', async () => {
    const allowed = await proxied.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/me',
      headers: { origin: 'https://client.example', 'access-control-request-method': 'GET' },
    })
    assert.equal(allowed.headers['access-control-allow-origin'], 'https://client.example')
    assert.equal(allowed.headers['access-control-allow-credentials'], 'true')
    const read = await proxied.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'https://client.example' },
    })
    assert.equal(read.headers['access-control-allow-origin'], 'https://client.example')
    const exposed = String(read.headers['access-control-expose-headers'])
      .split(',')
      .map((h) => h.trim().toLowerCase())
    for (const header of ['etag', 'x-total-count', 'x-unread-count', 'retry-after']) {
      assert.ok(exposed.includes(header), `${header} in ${exposed.join(', ')}`)
    }
    const refused = await proxied.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'https://evil.example' },
    })
    assert.equal(refused.headers['access-control-allow-origin'], undefined)
  })
})
