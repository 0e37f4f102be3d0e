import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { PASSWORD_RESET_ANSWER } from '@stake/contract'
import { ALL_PERMISSIONS, createUser, injectAs, login, loginRequest, signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { createUserIn, otherStake } from '../../test/stakes.fixtures.ts'

/**
 * Without mail (docs/api-reference.md §16): the forgotten-password page tells
 * the person to ask the stake's administrator, whose reset is a link to hand
 * over, never a password read off the screen.
 */
describe('no mail: the administrator hands over a reset link', () => {
  const t = useTestApp()
  let ip = 0
  const ask = (email: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email },
      remoteAddress: `10.9.0.${++ip}`,
    })
  const confirm = (token: string, new_password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { token, new_password } })
  const signIn = (email: string, password: string) => loginRequest(t, email, password)
  const tokenOf = (url: string) => {
    assert.match(url, /^http:\/\/[^/]+\/reset-password#[A-Za-z0-9_-]{43}$/)
    return url.slice(url.indexOf('#') + 1)
  }

  it('"forgot password" answers 202 with mail: false alike for existing, unknown and deactivated addresses', async () => {
    const active = await createUser(t)
    const inactive = await createUser(t, { active: false })
    const answers = await Promise.all([active.email, 'nobody-at-all@example.org', inactive.email].map(ask))
    for (const a of answers) {
      assert.equal(a.statusCode, 202)
      assert.deepEqual(a.json(), { detail: PASSWORD_RESET_ANSWER, mail: false })
      assert.equal(a.body, answers[0]!.body)
    }
    const links = await t.database.db
      .selectFrom('account_tokens')
      .select('id')
      .where('user_id', '=', active.id)
      .execute()
    assert.equal(links.length, 0, 'no link is made that nobody could receive')
  })

  it('returns 200 {sent: false, url}; the link sets a new password, the old one works until then', async () => {
    const admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const member = await signedIn(t, { permissions: ['proposals.submit'] })
    const res = await admin.as('POST', `/api/users/${member.user.id}/reset-link`)
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().sent, false)
    const token = tokenOf(res.json().url)
    assert.equal((await signIn(member.user.email, member.user.password)).statusCode, 200, 'old password still works')
    assert.equal((await confirm(token, 'handed-over-secret-31')).statusCode, 200)
    assert.equal((await signIn(member.user.email, member.user.password)).statusCode, 401)
    assert.equal((await signIn(member.user.email, 'handed-over-secret-31')).statusCode, 200)
    assert.equal((await member.as('GET', '/api/auth/me')).statusCode, 401, 'every session ended')
    assert.equal((await confirm(token, 'another-secret-32')).statusCode, 400, 'single use')
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('target_id', '=', member.user.id)
      .where('action', '=', 'user.password_reset')
      .execute()
    assert.equal(audit.length, 1)
    assert.deepEqual(JSON.parse(audit[0]!.detail), { link: true, mailed: false })
    assert.ok(!audit[0]!.detail.includes(token))
  })

  it('a handed-over link lives 24 hours; a newer one voids it', async () => {
    const admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const member = await createUser(t)
    const first = tokenOf((await admin.as('POST', `/api/users/${member.id}/reset-link`)).json().url)
    const second = tokenOf((await admin.as('POST', `/api/users/${member.id}/reset-link`)).json().url)
    assert.equal((await confirm(first, 'voided-link-secret-1')).json().code, 'invalid_token')
    t.clock.advance(24 * 3600 + 1)
    assert.equal((await confirm(second, 'expired-link-secret-2')).json().code, 'invalid_token')
    const again = injectAs(t, (await login(t, admin.user)).token) // the access token expired meanwhile
    const third = tokenOf((await again('POST', `/api/users/${member.id}/reset-link`)).json().url)
    t.clock.advance(23 * 3600)
    assert.equal((await confirm(third, 'in-time-secret-3')).statusCode, 200)
  })

  it('403 without users.manage or over permissions one lacks (S2); 409 roster-only or deactivated; 404 unknown or another stake', async () => {
    const admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const partial = await signedIn(t, { permissions: ['users.manage'] })
    const plain = await signedIn(t, { permissions: ['proposals.view'] })
    const strong = await createUser(t, { permissions: ['callings.manage'] })
    assert.equal((await plain.as('POST', `/api/users/${strong.id}/reset-link`)).statusCode, 403)
    assert.equal((await partial.as('POST', `/api/users/${strong.id}/reset-link`)).statusCode, 403)
    const roster = await admin.as('POST', '/api/users/', { email: null, fname: 'Roster', lname: 'Only' })
    const noEmail = await admin.as('POST', `/api/users/${roster.json().id}/reset-link`)
    assert.equal(noEmail.statusCode, 409)
    assert.equal(noEmail.json().code, 'no_email')
    const gone = await createUser(t, { active: false })
    assert.equal((await admin.as('POST', `/api/users/${gone.id}/reset-link`)).json().code, 'inactive')
    assert.equal((await admin.as('POST', '/api/users/999999/reset-link')).statusCode, 404)
    const other = await otherStake(t)
    const elsewhere = await createUserIn(t, other.stakeId)
    assert.equal((await admin.as('POST', `/api/users/${elsewhere.id}/reset-link`)).statusCode, 404)
  })
})
