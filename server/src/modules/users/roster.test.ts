import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../test/harness.ts'
import { createUser, injectAs, loginRequest, signedIn, unique } from '../../test/factories.ts'

/** Roster-only (no email) and passwordless (invited) users: docs/api-reference.md §15, §16. */
describe('roster-only and passwordless users', () => {
  const t = useTestApp()
  const signIn = (email: string, password: string) => loginRequest(t, email, password)

  it('creates a roster-only person without an email: no password, a phone, listed with email null', async () => {
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    const lname = unique('Roster')
    const res = await admin.as('POST', '/api/users', { email: null, fname: 'Ana', lname, phone: '555-0100' })
    assert.equal(res.statusCode, 201, res.body)
    const body = res.json()
    assert.equal(body.email, null)
    assert.equal(body.phone, '555-0100')
    assert.equal(body.temporary_password, undefined)
    assert.equal(body.force_password_reset, false)
    // Absent email is the same; two people without an email do not collide.
    const second = await admin.as('POST', '/api/users', { fname: 'Ben', lname })
    assert.equal(second.statusCode, 201, second.body)
    assert.equal(second.json().email, null)
    assert.equal(second.json().phone, null)
    const list = await admin.as('GET', `/api/users?q=${lname}`)
    assert.deepEqual(
      list
        .json()
        .map((u: { email: string | null }) => u.email)
        .sort(),
      [null, null],
    )
    const row = await t.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', body.id)
      .executeTakeFirstOrThrow()
    assert.equal(row.password_hash, null)
  })

  it('refuses a password for a person without an email (422), and an invitation without one (409 no_email)', async () => {
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    const withPassword = await admin.as('POST', '/api/users', { fname: 'A', lname: 'B', password: 'a-long-passphrase' })
    assert.equal(withPassword.statusCode, 422)
    assert.deepEqual(withPassword.json().detail[0].loc, ['body', 'password'])
    const invite = await admin.as('POST', '/api/users', { email: null, fname: 'A', lname: 'B', invite: true })
    assert.equal(invite.statusCode, 409)
    assert.equal(invite.json().code, 'no_email')
  })

  it('an invited person has no password until accepting: no temporary password, sign-in fails like an unknown one', async () => {
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    const email = `${unique('inv')}@example.org`
    const res = await admin.as('POST', '/api/users', { email, fname: 'C', lname: 'D', invite: true })
    assert.equal(res.statusCode, 201, res.body)
    assert.equal(res.json().temporary_password, undefined)
    assert.equal(res.json().force_password_reset, false)
    const attempt = await signIn(email, 'anything-at-all')
    const unknown = await signIn(`${unique('nobody')}@example.org`, 'anything-at-all')
    assert.equal(attempt.statusCode, 401)
    assert.equal(attempt.body, unknown.body)
    const both = await admin.as('POST', '/api/users', {
      email: `${unique()}@example.org`,
      fname: 'C',
      lname: 'D',
      invite: true,
      password: 'a-long-passphrase',
    })
    assert.equal(both.statusCode, 422)
  })

  it('no password can be set for a roster-only person (409 no_email)', async () => {
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    const person = (await admin.as('POST', '/api/users', { fname: 'E', lname: 'F' })).json()
    const res = await admin.as('PATCH', `/api/users/${person.id}/password`, { new_password: 'a-long-passphrase' })
    assert.equal(res.statusCode, 409)
    assert.equal(res.json().code, 'no_email')
  })

  it('taking an email away ends the sessions and the password; the phone changes only when sent', async () => {
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    const user = await createUser(t)
    const own = injectAs(t, (await signIn(user.email, user.password)).json().access_token)
    assert.equal((await own('GET', '/api/auth/me')).statusCode, 200)
    const withPhone = await admin.as('PUT', `/api/users/${user.id}`, {
      email: user.email,
      fname: user.fname,
      lname: user.lname,
      phone: '555-0199',
    })
    assert.equal(withPhone.json().phone, '555-0199')
    const kept = await admin.as('PUT', `/api/users/${user.id}`, { email: null, fname: user.fname, lname: user.lname })
    assert.equal(kept.statusCode, 200, kept.body)
    assert.equal(kept.json().email, null)
    assert.equal(kept.json().phone, '555-0199')
    assert.equal((await own('GET', '/api/auth/me')).statusCode, 401)
    assert.equal((await signIn(user.email, user.password)).statusCode, 401)
    const row = await t.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow()
    assert.equal(row.password_hash, null)
  })

  it('the last user manager cannot become roster-only (409 last_manager)', async () => {
    const admin = await signedIn(t, { permissions: ['users.manage'] })
    // Everyone else who manages users in this test database loses the grant first.
    await t.database.db.deleteFrom('user_permissions').where('user_id', '!=', admin.user.id).execute()
    await t.database.db.updateTable('calling_slots').set({ user_id: null, filled_at: null }).execute()
    const res = await admin.as('PUT', `/api/users/${admin.user.id}`, {
      email: null,
      fname: admin.user.fname,
      lname: admin.user.lname,
    })
    assert.equal(res.statusCode, 409)
    assert.equal(res.json().code, 'last_manager')
    assert.equal((await admin.as('GET', '/api/auth/me')).statusCode, 200)
  })
})
