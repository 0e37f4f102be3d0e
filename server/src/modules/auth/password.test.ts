import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { TEST_ARGON2, useTestApp } from '../../test/harness.ts'
import { createAdmin, createUser, injectAs, login, signedIn } from '../../test/factories.ts'
import { ensureBootstrapAdmin } from './bootstrap.ts'
import { commonPasswordCount, PasswordHasher } from './passwords.ts'

const strong = () => `horse-${Math.random().toString(36).slice(2)}-staple`

describe('forced password change', () => {
  const t = useTestApp()

  it('answers 403 password_change_required on guarded routes while the flag is set', async () => {
    const { user, as } = await signedIn(t, {
      forcePasswordReset: true,
      permissions: ['users.manage', 'callings.manage'],
    })
    const guarded: [string, string, unknown?][] = [
      ['GET', '/api/users'],
      ['GET', `/api/users/${user.id}`],
      ['PUT', `/api/users/${user.id}`, { email: user.email, fname: 'A', lname: 'B' }],
      ['POST', '/api/users', { email: 'x@example.org', fname: 'A', lname: 'B' }],
      ['GET', '/api/auth/sessions'],
      ['GET', `/api/users/${user.id}/permissions`],
    ]
    for (const [method, url, body] of guarded) {
      const res = await as(method as 'GET', url, body)
      assert.equal(res.statusCode, 403, `${method} ${url}`)
      assert.deepEqual(res.json(), { detail: 'Password change required', code: 'password_change_required' })
    }
  })

  it('still allows GET /auth/me, refresh and logout', async () => {
    const { as, refresh } = await signedIn(t, { forcePasswordReset: true })
    const me = await as('GET', '/api/auth/me')
    assert.equal(me.statusCode, 200)
    assert.equal(me.json().force_password_reset, true)
    const refreshed = await t.app.inject({
      method: 'GET',
      url: '/api/auth/refresh',
      cookies: { refresh_token: refresh },
    })
    assert.equal(refreshed.statusCode, 200)
    assert.equal((await as('POST', '/api/auth/logout')).statusCode, 204)
  })

  it('self change: needs the old password, clears the flag, keeps this session and ends the others', async () => {
    const user = await createUser(t, { forcePasswordReset: true })
    const other = await login(t, user)
    const current = await login(t, user)
    const as = injectAs(t, current.token)
    const url = `/api/users/${user.id}/password`
    const missing = await as('PATCH', url, { new_password: strong() })
    assert.equal(missing.statusCode, 422)
    assert.deepEqual(missing.json().detail[0].loc, ['body', 'old_password'])
    const wrong = await as('PATCH', url, { old_password: 'not-it-at-all', new_password: strong() })
    assert.equal(wrong.statusCode, 400)
    assert.equal(wrong.json().code, 'wrong_password')
    const next = strong()
    const ok = await as('PATCH', url, { old_password: user.password, new_password: next })
    assert.equal(ok.statusCode, 200)
    assert.equal(ok.json().force_password_reset, false)
    assert.equal(ok.json().id, user.id)
    assert.equal((await as('GET', '/api/auth/sessions')).statusCode, 200, 'guard lifted, session kept')
    assert.equal((await injectAs(t, other.token)('GET', '/api/auth/me')).statusCode, 401, 'other session ended')
    assert.equal((await login(t, { email: user.email, password: next })).token.length > 0, true)
  })

  it('enforces 8–256 characters, not the old one, not a common password — with no composition rules', async () => {
    const user = await createUser(t)
    const { token } = await login(t, user)
    const as = injectAs(t, token)
    const url = `/api/users/${user.id}/password`
    for (const bad of ['short7!', 'x'.repeat(257), user.password, 'password123', 'iloveyou1', 'Qwertyuiop']) {
      const res = await as('PATCH', url, { old_password: user.password, new_password: bad })
      assert.equal(res.statusCode, 422, bad.slice(0, 20))
      assert.deepEqual(res.json().detail[0].loc, ['body', 'new_password'])
    }
    assert.ok(commonPasswordCount() >= 1000)
    const eight = 'zqxwvkjm'
    assert.equal((await as('PATCH', url, { old_password: user.password, new_password: eight })).statusCode, 200)
    const long = 'y'.repeat(255) + 'z'
    assert.equal((await as('PATCH', url, { old_password: eight, new_password: long })).statusCode, 200)
  })

  it('an administrator sets another user’s password without the old one: flag set, all their sessions ended', async () => {
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    const target = await createUser(t)
    const session = await login(t, target)
    const res = await admin.as('PATCH', `/api/users/${target.id}/password`, { new_password: strong() })
    assert.equal(res.statusCode, 200)
    assert.equal(res.json().force_password_reset, true)
    assert.equal((await injectAs(t, session.token)('GET', '/api/auth/me')).statusCode, 401)
    assert.equal(
      (await admin.as('GET', '/api/auth/me')).statusCode,
      200,
      'the administrator’s own session is untouched',
    )
  })

  it('answers 403 when someone without users.manage changes another user’s password', async () => {
    const { as } = await signedIn(t)
    const target = await createUser(t)
    const res = await as('PATCH', `/api/users/${target.id}/password`, { new_password: strong() })
    assert.equal(res.statusCode, 403)
    assert.equal(res.json().code, 'forbidden')
  })

  it('a flagged user may only change their own password', async () => {
    const { as } = await signedIn(t, { forcePasswordReset: true, permissions: ['users.manage'] })
    const target = await createUser(t)
    const res = await as('PATCH', `/api/users/${target.id}/password`, { new_password: strong() })
    assert.equal(res.statusCode, 403)
    assert.equal(res.json().code, 'password_change_required')
  })

  it('answers 404 for an unknown user id (administrator)', async () => {
    const admin = await createAdmin(t)
    const { token } = await login(t, admin)
    const res = await injectAs(t, token)('PATCH', '/api/users/999999/password', { new_password: strong() })
    assert.equal(res.statusCode, 404)
  })
})

describe('the bootstrap administrator', () => {
  const t = useTestApp()

  it('is created once on an empty database with every permission and the password-change flag', async () => {
    const first = await ensureBootstrapAdmin(t.database.db, t.hasher, 'boss@example.org', null, t.clock.now())
    assert.equal(first.created, true)
    assert.ok(first.generatedPassword && first.generatedPassword.length >= 12)
    const again = await ensureBootstrapAdmin(t.database.db, t.hasher, 'boss@example.org', null, t.clock.now())
    assert.deepEqual(again, { created: false, generatedPassword: null })

    const { token } = await login(t, { email: 'boss@example.org', password: first.generatedPassword })
    const me = (await injectAs(t, token)('GET', '/api/auth/me')).json()
    assert.equal(me.force_password_reset, true)
    assert.equal(me.permissions.length, 7)
    assert.equal((await injectAs(t, token)('GET', '/api/users')).statusCode, 403)
  })
})

describe('password hashing', () => {
  it('computes at most its concurrency at once; the rest wait their turn and all finish', async () => {
    const hasher = new PasswordHasher(TEST_ARGON2, 2)
    const hashes = Array.from({ length: 5 }, (_, i) => hasher.hash(`password-number-${i}`))
    assert.deepEqual(hasher.load, { running: 2, waiting: 3 })
    const done = await Promise.all(hashes)
    assert.deepEqual(hasher.load, { running: 0, waiting: 0 })
    const verified = [
      hasher.verify(done[0]!, 'password-number-0'),
      hasher.verify(done[1]!, 'wrong'),
      hasher.verifyNothing('x'),
    ]
    assert.equal(hasher.load.running, 2)
    assert.deepEqual(await Promise.all(verified), [true, false, false])
    assert.deepEqual(hasher.load, { running: 0, waiting: 0 })
  })
})
