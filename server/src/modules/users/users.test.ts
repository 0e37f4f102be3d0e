import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../test/harness.ts'
import { createUser, injectAs, login, signedIn, unique } from '../../test/factories.ts'

describe('users', () => {
  const t = useTestApp()

  it('POST /users answers 201 with a one-time temporary_password when none is given; the flag is set', async () => {
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    const email = `${unique('new')}@example.org`
    const res = await admin.as('POST', '/api/users/', { email, fname: 'Ann', lname: 'Lee' })
    assert.equal(res.statusCode, 201)
    const body = res.json()
    assert.equal(body.email, email)
    assert.equal(body.force_password_reset, true)
    assert.equal(body.active, true)
    assert.equal(typeof body.temporary_password, 'string')
    assert.equal(body.password_hash, undefined)
    // the new user signs in with it and must change it first
    const { token } = await login(t, { email, password: body.temporary_password })
    assert.equal((await injectAs(t, token)('GET', '/api/users')).json().code, 'password_change_required')
  })

  it('POST /users with a password returns no temporary_password and still sets the flag', async () => {
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    const res = await admin.as('POST', '/api/users', {
      email: `${unique()}@example.org`,
      fname: 'B',
      lname: 'C',
      password: 'a-chosen-passphrase',
    })
    assert.equal(res.statusCode, 201)
    assert.equal(res.json().temporary_password, undefined)
    assert.equal(res.json().force_password_reset, true)
  })

  it('refuses a duplicate email case-insensitively with 409', async () => {
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    const existing = await createUser(t)
    const res = await admin.as('POST', '/api/users', { email: existing.email.toUpperCase(), fname: 'X', lname: 'Y' })
    assert.equal(res.statusCode, 409)
    assert.equal(res.json().code, 'duplicate_email')
  })

  it('lists every failing field of a bad create in one 422', async () => {
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    const res = await admin.as('POST', '/api/users', { email: 'not-an-email', fname: '', extra: 'ignored' })
    assert.equal(res.statusCode, 422)
    const locs = res
      .json()
      .detail.map((d: { loc: string[] }) => d.loc.join('.'))
      .sort()
    assert.deepEqual(locs, ['body.email', 'body.fname', 'body.lname'])
  })

  it('serves the same handlers at the root aliases, with or without a trailing slash, without redirects', async () => {
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    for (const url of ['/users', '/users/', '/api/users', '/api/users/']) {
      const res = await admin.as('GET', url)
      assert.equal(res.statusCode, 200, url)
      assert.ok(Array.isArray(res.json()))
    }
    const one = await admin.as('GET', `/users/${admin.user.id}/`)
    assert.equal(one.json().id, admin.user.id)
  })

  it('POST /users needs users.manage (403)', async () => {
    const { as } = await signedIn(t)
    const res = await as('POST', '/api/users', { email: `${unique()}@example.org`, fname: 'X', lname: 'Y' })
    assert.equal(res.statusCode, 403)
    assert.equal(res.json().code, 'forbidden')
  })

  it('GET /users filters by q and active, pages with limit/offset and reports X-Total-Count', async () => {
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    const tag = unique('Zed')
    for (let i = 0; i < 3; i++) await createUser(t, { fname: tag, lname: `L${i}` })
    await createUser(t, { fname: tag, lname: 'Gone', active: false })
    const all = await admin.as('GET', `/api/users?q=${tag.toLowerCase()}`)
    assert.equal(all.statusCode, 200)
    assert.equal(all.headers['x-total-count'], '4')
    const active = await admin.as('GET', `/api/users?q=${tag}&active=true&limit=2&offset=1`)
    assert.equal(active.headers['x-total-count'], '3')
    assert.equal(active.json().length, 2)
    assert.equal(typeof active.json()[0].email, 'string')
    const past = await admin.as('GET', `/api/users?q=${tag}&offset=50`)
    assert.deepEqual(past.json(), [])
    assert.equal((await admin.as('GET', '/api/users?limit=1000')).statusCode, 422)
  })

  it('GET /users without users.manage shows only id, names and active of active users, and never searches emails', async () => {
    const { as } = await signedIn(t)
    const tag = unique('Yan')
    const visible = await createUser(t, { fname: tag })
    await createUser(t, { fname: tag, active: false })
    const res = await as('GET', `/api/users?q=${tag}`)
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), [{ id: visible.id, fname: tag, lname: visible.lname, active: true }])
    const byEmail = await as('GET', `/api/users?q=${encodeURIComponent(visible.email)}`)
    assert.deepEqual(byEmail.json(), [])
    assert.deepEqual((await as('GET', `/api/users?q=${tag}&active=false`)).json(), [])
  })

  it('GET /users/{id}: self or users.manage; 403 for others, 404 when absent', async () => {
    const me = await signedIn(t)
    const other = await createUser(t)
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    assert.equal((await me.as('GET', `/api/users/${me.user.id}`)).statusCode, 200)
    assert.equal((await me.as('GET', `/api/users/${other.id}`)).statusCode, 403)
    assert.equal((await admin.as('GET', `/api/users/${other.id}`)).json().email, other.email)
    assert.equal((await admin.as('GET', '/api/users/99999999')).statusCode, 404)
  })

  it('PUT /users/{id}: a user edits their own name (not their email, S2) but cannot change active', async () => {
    const me = await signedIn(t)
    const email = me.user.email
    const renamed = await me.as('PUT', `/api/users/${me.user.id}`, {
      email: `${unique('renamed')}@example.org`,
      fname: 'New',
      lname: 'Name',
    })
    assert.equal(renamed.statusCode, 403)
    const ok = await me.as('PUT', `/api/users/${me.user.id}`, { email, fname: 'New', lname: 'Name' })
    assert.equal(ok.statusCode, 200)
    assert.equal(ok.json().email, email)
    assert.equal(ok.json().fname, 'New')
    const unchangedActive = await me.as('PUT', `/api/users/${me.user.id}`, {
      email,
      fname: 'New',
      lname: 'Name',
      active: true,
    })
    assert.equal(unchangedActive.statusCode, 200)
    const deactivate = await me.as('PUT', `/api/users/${me.user.id}`, {
      email,
      fname: 'New',
      lname: 'Name',
      active: false,
    })
    assert.equal(deactivate.statusCode, 403)
    const other = await createUser(t)
    assert.equal(
      (await me.as('PUT', `/api/users/${other.id}`, { email: other.email, fname: 'X', lname: 'Y' })).statusCode,
      403,
    )
  })

  it('PUT /users/{id}: deactivation by an administrator ends the user’s sessions at once', async () => {
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    const target = await signedIn(t)
    const res = await admin.as('PUT', `/api/users/${target.user.id}`, {
      email: target.user.email,
      fname: target.user.fname,
      lname: target.user.lname,
      active: false,
    })
    assert.equal(res.statusCode, 200)
    assert.equal(res.json().active, false)
    assert.equal((await target.as('GET', '/api/auth/me')).statusCode, 401)
    assert.equal(
      (await t.app.inject({ method: 'GET', url: '/api/auth/refresh', cookies: { refresh_token: target.refresh } }))
        .statusCode,
      401,
    )
  })

  it('PUT /users/{id}: nobody deactivates themselves (409); a duplicate email is 409', async () => {
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    const self = await admin.as('PUT', `/api/users/${admin.user.id}`, {
      email: admin.user.email,
      fname: 'A',
      lname: 'B',
      active: false,
    })
    assert.equal(self.statusCode, 409)
    const other = await createUser(t)
    const dup = await admin.as('PUT', `/api/users/${admin.user.id}`, { email: other.email, fname: 'A', lname: 'B' })
    assert.equal(dup.statusCode, 409)
    assert.equal(dup.json().code, 'duplicate_email')
  })
})

describe('direct permission grants', () => {
  const t = useTestApp()

  it('GET and PUT /users/{id}/permissions replace the direct grants', async () => {
    const admin = await signedIn(t, { permissions: ['users.manage', 'wards.manage', 'speaking.manage'] })
    const target = await createUser(t)
    const put = await admin.as('PUT', `/api/users/${target.id}/permissions`, {
      permissions: ['speaking.manage', 'wards.manage'],
    })
    assert.equal(put.statusCode, 200)
    assert.deepEqual(put.json(), { permissions: ['wards.manage', 'speaking.manage'] })
    assert.deepEqual((await admin.as('GET', `/api/users/${target.id}/permissions`)).json(), put.json())
    const { token } = await login(t, target)
    assert.deepEqual((await injectAs(t, token)('GET', '/api/auth/me')).json().permissions, [
      'wards.manage',
      'speaking.manage',
    ])
  })

  it('refuses to grant what the granter does not hold (403) and leaves the grants unchanged', async () => {
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    const target = await createUser(t)
    const res = await admin.as('PUT', `/api/users/${target.id}/permissions`, { permissions: ['callings.manage'] })
    assert.equal(res.statusCode, 403)
    assert.equal(res.json().code, 'forbidden')
    assert.deepEqual((await admin.as('GET', `/api/users/${target.id}/permissions`)).json(), { permissions: [] })
    const ok = await admin.as('PUT', `/api/users/${target.id}/permissions`, { permissions: ['users.manage'] })
    assert.equal(ok.statusCode, 200)
  })

  it('rejects unknown permission names with 422 and needs users.manage to write (403)', async () => {
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    const target = await createUser(t)
    const bad = await admin.as('PUT', `/api/users/${target.id}/permissions`, { permissions: ['root.everything'] })
    assert.equal(bad.statusCode, 422)
    assert.deepEqual(bad.json().detail[0].loc, ['body', 'permissions', '0'])
    const plain = await signedIn(t)
    assert.equal((await plain.as('PUT', `/api/users/${target.id}/permissions`, { permissions: [] })).statusCode, 403)
    assert.equal((await admin.as('PUT', '/api/users/99999999/permissions', { permissions: [] })).statusCode, 404)
  })

  it("keeps each user's language: English at first, set by PUT /users/{id}, kept when absent, only en or es", async () => {
    const me = await signedIn(t)
    const own = (extra: object) =>
      me.as('PUT', `/api/users/${me.user.id}`, { email: me.user.email, fname: 'Eva', lname: 'Ruiz', ...extra })
    assert.equal((await me.as('GET', '/api/auth/me')).json().language, 'en')
    const set = await own({ language: 'es' })
    assert.equal(set.statusCode, 200)
    assert.equal(set.json().language, 'es')
    assert.equal((await me.as('GET', '/api/auth/me')).json().language, 'es')
    assert.equal((await own({})).json().language, 'es')
    const bad = await own({ language: 'fr' })
    assert.equal(bad.statusCode, 422)
    assert.deepEqual(bad.json().detail[0].loc, ['body', 'language'])
  })
})
