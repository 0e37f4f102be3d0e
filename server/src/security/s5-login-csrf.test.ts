import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp, type TestApp } from '../test/harness.ts'
import { createUser } from '../test/factories.ts'

/** S5: a cross-site sign-in (Sec-Fetch-Site or a foreign Origin) is refused with 403 cross_site. */
describe('S5 login CSRF', () => {
  const t = useTestApp()
  const withCors = useTestApp({ CORS_ORIGINS: 'https://client.example' })

  async function signIn(app: TestApp, headers: Record<string, string>) {
    const user = await createUser(app)
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { host: 'stake.example:8000', 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams({ username: user.email, password: user.password }).toString(),
    })
    const sessions = await app.database.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()
    return { res, sessions: sessions.length }
  }

  it('refuses Sec-Fetch-Site: cross-site and a foreign Origin: 403 cross_site, no cookie, no session', async () => {
    for (const headers of <Record<string, string>[]>[
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
      { origin: 'http://stake.example:8001' },
      { origin: 'null' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' },
    ]) {
      const { res, sessions } = await signIn(t, headers)
      assert.equal(res.statusCode, 403, JSON.stringify(headers))
      assert.equal(res.json().code, 'cross_site')
      assert.equal(res.cookies.length, 0)
      assert.equal(sessions, 0)
    }
  })

  it('signs in from the service’s own origin, from a CORS_ORIGINS origin, and with neither header', async () => {
    for (const headers of <Record<string, string>[]>[
      {},
      { origin: 'http://stake.example:8000', 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
    ]) {
      const { res, sessions } = await signIn(t, headers)
      assert.equal(res.statusCode, 200, `${JSON.stringify(headers)} ${res.body}`)
      assert.equal(sessions, 1)
    }
    assert.equal(
      (await signIn(withCors, { origin: 'https://client.example', 'sec-fetch-site': 'cross-site' })).res.statusCode,
      200,
    )
    assert.equal(
      (await signIn(withCors, { origin: 'https://other.example', 'sec-fetch-site': 'cross-site' })).res.statusCode,
      403,
    )
    assert.equal((await signIn(t, { origin: 'https://client.example' })).res.statusCode, 403)
  })
})
