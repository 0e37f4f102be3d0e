import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose'
import { useTestApp } from '../../test/harness.ts'
import { createUser, injectAs, login } from '../../test/factories.ts'

const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
})

describe('POST /auth/login', () => {
  const t = useTestApp()

  it('returns 200 with an access token and sets the refresh cookie as the contract describes', async () => {
    const user = await createUser(t)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      ...form({ username: user.email, password: user.password }),
    })
    assert.equal(res.statusCode, 200)
    const body = res.json()
    assert.equal(body.token_type, 'bearer')
    assert.equal(body.expires_in, 900)
    const cookie = res.cookies.find((c) => c.name === 'refresh_token')
    assert.ok(cookie, 'refresh_token cookie set')
    assert.equal(cookie.httpOnly, true)
    assert.equal(cookie.sameSite, 'Strict')
    assert.equal(cookie.path, '/')
    assert.equal(cookie.maxAge, 7 * 24 * 3600)
    assert.equal(cookie.secure, undefined, 'not Secure on plain http localhost by default')
    assert.match(cookie.value, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{40,}$/)
  })

  it('issues an HS256 JWT with sub, sid, iat, exp (15 min), iss, aud and typ', async () => {
    const user = await createUser(t)
    const { token } = await login(t, user)
    assert.equal(decodeProtectedHeader(token).alg, 'HS256')
    const claims = decodeJwt(token)
    assert.equal(claims.sub, String(user.id))
    assert.equal(typeof claims.sid, 'string')
    assert.equal(claims.typ, 'access')
    assert.equal(claims.iss, 'stake-admin')
    assert.equal(claims.aud, 'stake-admin-api')
    assert.equal((claims.exp as number) - (claims.iat as number), 900)
    assert.equal(claims.iat, Math.floor(t.clock.now().getTime() / 1000))
  })

  it('matches the email case-insensitively and is served at the root alias too', async () => {
    const user = await createUser(t)
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login/',
      ...form({ username: user.email.toUpperCase(), password: user.password }),
    })
    assert.equal(res.statusCode, 200)
  })

  it('gives the same 401 for an unknown email, a wrong password and an inactive user', async () => {
    const user = await createUser(t)
    const inactive = await createUser(t, { active: false })
    const attempts = [
      { username: `nobody-${user.email}`, password: user.password },
      { username: user.email, password: `${user.password}x` },
      { username: inactive.email, password: inactive.password },
    ]
    const bodies = []
    for (const attempt of attempts) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', ...form(attempt) })
      assert.equal(res.statusCode, 401)
      assert.equal(res.cookies.length, 0)
      bodies.push(res.body)
    }
    assert.deepEqual(JSON.parse(bodies[0]!), { detail: 'Incorrect email or password' })
    assert.equal(new Set(bodies).size, 1, 'one indistinguishable body')
  })

  it('rejects a JSON login with 422 (the login is form-encoded)', async () => {
    const user = await createUser(t)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: user.email, password: user.password },
    })
    assert.equal(res.statusCode, 422)
    assert.deepEqual(res.json().detail[0].loc, ['header', 'content-type'])
  })

  it('lists every missing form field in one 422', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', ...form({}) })
    assert.equal(res.statusCode, 422)
    const locs = res
      .json()
      .detail.map((d: { loc: string[] }) => d.loc.join('.'))
      .sort()
    assert.deepEqual(locs, ['body.password', 'body.username'])
    for (const d of res.json().detail) assert.equal(d.type, 'missing')
  })
})

describe('access tokens on protected routes', () => {
  const t = useTestApp()

  it('answers 401 Not authenticated with WWW-Authenticate: Bearer when the token is missing', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/me' })
    assert.equal(res.statusCode, 401)
    assert.equal(res.headers['www-authenticate'], 'Bearer')
    assert.deepEqual(res.json(), { detail: 'Not authenticated' })
  })

  it('answers 401 Token expired once the 15 minutes are over', async () => {
    const user = await createUser(t)
    const { token } = await login(t, user)
    assert.equal((await injectAs(t, token)('GET', '/api/auth/me')).statusCode, 200)
    t.clock.advance(901)
    const res = await injectAs(t, token)('GET', '/api/auth/me')
    assert.equal(res.statusCode, 401)
    assert.deepEqual(res.json(), { detail: 'Token expired' })
    assert.equal(res.headers['www-authenticate'], 'Bearer')
  })

  it('rejects malformed tokens, foreign signatures and alg=none', async () => {
    const user = await createUser(t)
    const { token } = await login(t, user)
    const claims = decodeJwt(token)
    const foreign = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('another-secret-that-is-32-bytes-long!!'))
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${token.split('.')[1]}.`
    for (const bad of ['garbage', `${token}x`, foreign, none, '']) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${bad}` },
      })
      assert.equal(res.statusCode, 401, bad)
    }
    const basic = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Basic ${token}` },
    })
    assert.equal(basic.statusCode, 401)
  })

  it('stops the access token at once when the user is deactivated', async () => {
    const user = await createUser(t)
    const { token } = await login(t, user)
    await t.database.db.updateTable('users').set({ active: false }).where('id', '=', user.id).execute()
    assert.equal((await injectAs(t, token)('GET', '/api/auth/me')).statusCode, 401)
  })

  it('GET /auth/me returns the profile with callings and effective permissions, never a hash', async () => {
    const user = await createUser(t, { permissions: ['wards.manage', 'users.manage'] })
    const { token } = await login(t, user)
    const res = await injectAs(t, token)('GET', '/auth/me')
    assert.equal(res.statusCode, 200)
    const me = res.json()
    assert.equal(me.id, user.id)
    assert.equal(me.email, user.email)
    assert.deepEqual(me.permissions, ['users.manage', 'wards.manage'])
    assert.deepEqual(me.callings, [])
    assert.equal(me.password_hash, undefined)
    assert.match(me.created_at, /Z$/)
  })
})
