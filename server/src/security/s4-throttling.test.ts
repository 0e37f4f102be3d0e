import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { useTestApp } from '../test/harness.ts'
import { createUser, loginRequest, signedIn } from '../test/factories.ts'
import { PasswordHasher } from '../modules/auth/passwords.ts'

/** S4: attempts are counted before the password check, atomically; every 429 says too_many_attempts. */
describe('S4 atomic login throttling', () => {
  const t = useTestApp()
  // Counts the password checks that actually run (a spy on the hasher, not timing).
  let checks = 0
  const original = PasswordHasher.prototype.verify
  before(() => {
    PasswordHasher.prototype.verify = function (this: PasswordHasher, ...args: [string, string]) {
      checks++
      return original.apply(this, args)
    }
  })
  after(() => {
    PasswordHasher.prototype.verify = original
  })

  const attempt = (username: string, password: string, ip = '203.0.113.20') => loginRequest(t, username, password, ip)
  const assertThrottled = (res: LightMyRequestResponse) => {
    assert.equal(res.statusCode, 429, res.body)
    assert.equal(res.json().code, 'too_many_attempts')
    assert.ok(Number(res.headers['retry-after']) >= 1)
  }

  it('40 parallel wrong passwords for one account: at most 5 reach the password check, the rest 429', async () => {
    const user = await createUser(t)
    checks = 0
    const results = await Promise.all(Array.from({ length: 40 }, () => attempt(user.email, 'wrong-password')))
    assert.ok(checks <= 5, `${checks} password checks`)
    assert.equal(results.filter((r) => r.statusCode === 401).length, checks)
    for (const res of results.filter((r) => r.statusCode !== 401)) assertThrottled(res)
    // The lock holds against the right password too, without checking it.
    checks = 0
    assertThrottled(await attempt(user.email, user.password))
    assert.equal(checks, 0)
  })

  it('the same for an unknown account (no enumeration through the throttle)', async () => {
    checks = 0
    const results = await Promise.all(
      Array.from({ length: 40 }, () => attempt('nobody-here@example.org', 'wrong-password', '203.0.113.21')),
    )
    assert.ok(checks <= 5, `${checks} password checks`)
    assert.equal(results.filter((r) => r.statusCode === 429).length, 40 - checks)
  })

  it('one address: at most 100 of 130 parallel attempts over many accounts reach the check', async () => {
    checks = 0
    const results = await Promise.all(
      Array.from({ length: 130 }, (_, i) => attempt(`ghost${i}@example.org`, 'wrong-password', '198.51.100.77')),
    )
    assert.ok(checks <= 100, `${checks} password checks`)
    for (const res of results.filter((r) => r.statusCode !== 401)) assertThrottled(res)
    assert.ok(results.filter((r) => r.statusCode === 429).length >= 30)
  })

  it('a wrong old_password counts toward the account’s limit: after 5 wrong, 429 (also for signing in)', async () => {
    const me = await signedIn(t)
    const change = (old_password: string) =>
      me.as('PATCH', `/api/users/${me.user.id}/password`, { old_password, new_password: 'a brand new passphrase' })
    for (let i = 0; i < 5; i++) assert.equal((await change('not-my-password')).statusCode, 400)
    checks = 0
    assertThrottled(await change(me.user.password))
    assertThrottled(await attempt(me.user.email, me.user.password, '203.0.113.22'))
    assert.equal(checks, 0)
  })

  it('a right old_password clears the count, as a successful sign-in does', async () => {
    const me = await signedIn(t)
    for (let i = 0; i < 4; i++)
      assert.equal((await attempt(me.user.email, 'wrong-password', '203.0.113.23')).statusCode, 401)
    const res = await me.as('PATCH', `/api/users/${me.user.id}/password`, {
      old_password: me.user.password,
      new_password: 'a brand new passphrase',
    })
    assert.equal(res.statusCode, 200, res.body)
    for (let i = 0; i < 4; i++)
      assert.equal((await attempt(me.user.email, 'wrong-password', '203.0.113.23')).statusCode, 401)
    assert.equal((await attempt(me.user.email, 'a brand new passphrase', '203.0.113.23')).statusCode, 200)
  })
})
