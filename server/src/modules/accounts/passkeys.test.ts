import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../../test/harness.ts'
import { injectAs, signedIn } from '../../test/factories.ts'
import { SoftAuthenticator } from '../../test/soft-authenticator.ts'

const PUBLIC = 'https://stake.example.org'
const RP = 'stake.example.org'

describe('passkeys (docs/api-reference.md §16)', () => {
  const t = useTestApp({ PUBLIC_URL: PUBLIC })
  const anonymous = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) })

  const register = async (as: ReturnType<typeof injectAs>, device: SoftAuthenticator, name?: string) => {
    const options = await as('POST', '/api/auth/passkeys/options')
    assert.equal(options.statusCode, 200, options.body)
    const res = await as('POST', '/api/auth/passkeys', { credential: device.register(options.json()), name })
    return res
  }
  const loginOptions = async () => {
    const res = await anonymous('POST', '/api/auth/passkey-login/options')
    assert.equal(res.statusCode, 200, res.body)
    return res.json() as { challenge: string; rpId: string; userVerification: string; allowCredentials?: unknown[] }
  }
  const signIn = async (device: SoftAuthenticator, over: Parameters<SoftAuthenticator['assert']>[1] = {}) =>
    anonymous('POST', '/api/auth/passkey-login', { credential: device.assert(await loginOptions(), over) })

  let user: Awaited<ReturnType<typeof signedIn>>
  const device = new SoftAuthenticator(RP, PUBLIC)

  before(async () => {
    user = await signedIn(t, { fname: 'Pat', lname: 'Key' })
  })

  it('creation options: relying party from PUBLIC_URL, discoverable credential, user verification required', async () => {
    const res = await user.as('POST', '/api/auth/passkeys/options')
    assert.equal(res.statusCode, 200, res.body)
    const options = res.json()
    assert.equal(options.rp.id, RP)
    assert.equal(options.authenticatorSelection.residentKey, 'required')
    assert.equal(options.authenticatorSelection.userVerification, 'required')
    assert.equal(res.headers['cache-control'], 'no-store')
    assert.equal((await anonymous('POST', '/api/auth/passkeys/options')).statusCode, 401)
  })

  it('registers, lists, renames; the same credential twice is refused', async () => {
    const res = await register(user.as, device, 'My phone')
    assert.equal(res.statusCode, 201, res.body)
    const made = res.json()
    assert.deepEqual(Object.keys(made).sort(), ['created_at', 'id', 'last_used_at', 'name'])
    assert.equal(made.name, 'My phone')
    assert.equal(made.last_used_at, null)
    const list = await user.as('GET', '/api/auth/passkeys')
    assert.deepEqual(
      list.json().map((p: { name: string }) => p.name),
      ['My phone'],
    )
    const renamed = await user.as('PATCH', `/api/auth/passkeys/${made.id}`, { name: 'Pixel' })
    assert.equal(renamed.statusCode, 200, renamed.body)
    assert.equal(renamed.json().name, 'Pixel')
    assert.equal((await user.as('PATCH', `/api/auth/passkeys/${made.id}`, { name: '' })).statusCode, 422)
    const again = await register(user.as, device)
    assert.equal(again.statusCode, 409, again.body)
  })

  it('a registration is refused for a wrong origin, a wrong relying party, a spent or foreign challenge', async () => {
    const other = new SoftAuthenticator(RP, PUBLIC)
    for (const over of [{ origin: 'https://evil.example.net' }, { rpId: 'evil.example.net' }]) {
      const options = (await user.as('POST', '/api/auth/passkeys/options')).json()
      const res = await user.as('POST', '/api/auth/passkeys', { credential: other.register(options, over) })
      assert.equal(res.statusCode, 400, res.body)
      assert.equal(res.json().code, 'invalid_passkey')
    }
    // A challenge handed to someone else, or spent, does not register.
    const stranger = await signedIn(t)
    const theirs = (await stranger.as('POST', '/api/auth/passkeys/options')).json()
    const res = await user.as('POST', '/api/auth/passkeys', { credential: other.register(theirs) })
    assert.equal(res.statusCode, 400, res.body)
    const mine = (await user.as('POST', '/api/auth/passkeys/options')).json()
    assert.equal((await user.as('POST', '/api/auth/passkeys', { credential: other.register(mine) })).statusCode, 201)
    const third = new SoftAuthenticator(RP, PUBLIC)
    assert.equal((await user.as('POST', '/api/auth/passkeys', { credential: third.register(mine) })).statusCode, 400)
    // Malformed credentials are 400 or 422, never 500.
    for (const credential of [{}, { id: 'x', rawId: 'x', type: 'public-key', response: {} }, 'nope']) {
      const r = await user.as('POST', '/api/auth/passkeys', { credential })
      assert.ok([400, 422].includes(r.statusCode), `${r.statusCode} ${r.body}`)
    }
  })

  it('request options: discoverable (no credential list), user verification required', async () => {
    const options = await loginOptions()
    assert.equal(options.rpId, RP)
    assert.equal(options.userVerification, 'required')
    assert.ok(!options.allowCredentials || options.allowCredentials.length === 0)
  })

  it('signs in as a password sign-in does: access token, refresh cookie, a session; last use recorded', async () => {
    const res = await signIn(device)
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().token_type, 'bearer')
    const cookie = res.cookies.find((c) => c.name === 'refresh_token')
    assert.ok(cookie?.httpOnly)
    const me = await injectAs(t, res.json().access_token)('GET', '/api/auth/me')
    assert.equal(me.json().id, user.user.id)
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      cookies: { refresh_token: cookie!.value },
    })
    assert.equal(refreshed.statusCode, 200, refreshed.body)
    const listed = (await user.as('GET', '/api/auth/passkeys')).json()
    assert.ok(listed.some((p: { last_used_at: string | null }) => p.last_used_at !== null))
  })

  it('the counter is checked: a replayed or cloned assertion (counter not moving on) signs nobody in', async () => {
    const stale = await signIn(device, { counter: device.counter })
    assert.equal(stale.statusCode, 401, stale.body)
    assert.equal(stale.json().detail, 'Passkey sign-in failed')
  })

  it('the challenge is spent once, and must be one the server handed out', async () => {
    const options = await loginOptions()
    const first = await anonymous('POST', '/api/auth/passkey-login', { credential: device.assert(options) })
    assert.equal(first.statusCode, 200, first.body)
    const second = await anonymous('POST', '/api/auth/passkey-login', { credential: device.assert(options) })
    assert.equal(second.statusCode, 401)
    const made = await anonymous('POST', '/api/auth/passkey-login', {
      credential: device.assert({ challenge: Buffer.from('made up by the client').toString('base64url') }),
    })
    assert.equal(made.statusCode, 401)
  })

  it('the origin and relying party are checked; user verification is required', async () => {
    for (const over of [
      { origin: 'https://evil.example.net' },
      { rpId: 'evil.example.net' },
      { userVerified: false },
    ]) {
      const res = await signIn(device, over)
      assert.equal(res.statusCode, 401, JSON.stringify(over))
    }
  })

  it('a passkey of a deactivated user signs nobody in; an unknown credential answers the same', async () => {
    const other = await signedIn(t)
    const key = new SoftAuthenticator(RP, PUBLIC)
    assert.equal((await register(other.as, key)).statusCode, 201)
    await t.database.db.updateTable('users').set({ active: false }).where('id', '=', other.user.id).execute()
    const refused = await signIn(key)
    const unknown = await signIn(new SoftAuthenticator(RP, PUBLIC))
    assert.equal(refused.statusCode, 401)
    assert.equal(unknown.statusCode, 401)
    assert.equal(refused.body, unknown.body)
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('action', '=', 'auth.login_failed')
      .where('target_id', '=', other.user.id)
      .execute()
    assert.ok(audit.length >= 1)
  })

  it('failed passkey sign-ins count toward S4: after 5 the account is locked (429 too_many_attempts)', async () => {
    const victim = await signedIn(t)
    const key = new SoftAuthenticator(RP, PUBLIC)
    assert.equal((await register(victim.as, key)).statusCode, 201)
    for (let i = 0; i < 5; i++)
      assert.equal((await signIn(key, { origin: 'https://evil.example.net' })).statusCode, 401)
    const locked = await signIn(key)
    assert.equal(locked.statusCode, 429, locked.body)
    assert.equal(locked.json().code, 'too_many_attempts')
    assert.ok(Number(locked.headers['retry-after']) > 0)
    // The password sign-in shares the lock: one account, one count.
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username: victim.user.email, password: victim.user.password }).toString(),
    })
    assert.equal(form.statusCode, 429)
  })

  it('a cross-site passkey sign-in is refused (S5)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/passkey-login',
      headers: { 'sec-fetch-site': 'cross-site' },
      payload: { credential: device.assert(await loginOptions()) },
    })
    assert.equal(res.statusCode, 403)
    assert.equal(res.json().code, 'cross_site')
  })

  it('removing a passkey: 204, then it signs nobody in; another user’s passkey is 404', async () => {
    const stranger = await signedIn(t)
    const list = (await user.as('GET', '/api/auth/passkeys')).json() as { id: number }[]
    const id = list[0]!.id
    assert.equal((await stranger.as('DELETE', `/api/auth/passkeys/${id}`)).statusCode, 404)
    assert.equal((await stranger.as('PATCH', `/api/auth/passkeys/${id}`, { name: 'Mine' })).statusCode, 404)
    const removed = await user.as('DELETE', `/api/auth/passkeys/${id}`)
    assert.equal(removed.statusCode, 204, removed.body)
    assert.equal((await user.as('DELETE', `/api/auth/passkeys/${id}`)).statusCode, 404)
    assert.equal((await signIn(device)).statusCode, 401)
    const actions = await t.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', user.user.id)
      .where('action', 'like', 'auth.passkey_%')
      .execute()
    assert.ok(actions.some((a) => a.action === 'auth.passkey_add'))
    assert.ok(actions.some((a) => a.action === 'auth.passkey_remove'))
  })
})

describe('passkeys without PUBLIC_URL: the relying party is the request’s host', () => {
  const t = useTestApp({})
  it('rp.id is the Host header’s name, without the port', async () => {
    const { token } = await signedIn(t)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/passkeys/options',
      headers: { authorization: `Bearer ${token}`, host: 'stake.local:8443' },
    })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().rp.id, 'stake.local')
  })
})
