import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../test/harness.ts'
import { createUser, loginRequest } from '../../test/factories.ts'

describe('login throttling (kept in the database)', () => {
  const t = useTestApp()

  const attempt = (username: string, password: string, ip = '203.0.113.7') => loginRequest(t, username, password, ip)

  it('locks an account after 5 failures in 15 minutes, even against the correct password, with Retry-After', async () => {
    const user = await createUser(t)
    for (let i = 0; i < 5; i++) assert.equal((await attempt(user.email, 'wrong-password')).statusCode, 401)
    const locked = await attempt(user.email, user.password)
    assert.equal(locked.statusCode, 429)
    assert.equal(typeof locked.json().detail, 'string')
    assert.equal(locked.headers['retry-after'], '30')
    // other accounts from the same address are not affected
    const other = await createUser(t)
    assert.equal((await attempt(other.email, other.password)).statusCode, 200)
  })

  it('lets the lock expire; each further failure locks for longer; success clears the count', async () => {
    const user = await createUser(t)
    for (let i = 0; i < 5; i++) await attempt(user.email, 'wrong-password')
    t.clock.advance(31)
    assert.equal((await attempt(user.email, 'wrong-again')).statusCode, 401)
    const longer = await attempt(user.email, user.password)
    assert.equal(longer.statusCode, 429)
    assert.equal(longer.headers['retry-after'], '60')
    t.clock.advance(61)
    assert.equal((await attempt(user.email, user.password)).statusCode, 200)
    // the count was cleared: four failures do not lock
    for (let i = 0; i < 4; i++) await attempt(user.email, 'wrong-password')
    assert.equal((await attempt(user.email, user.password)).statusCode, 200)
  })

  it('forgets failures older than the 15-minute window', async () => {
    const user = await createUser(t)
    for (let i = 0; i < 4; i++) await attempt(user.email, 'wrong-password')
    t.clock.advance(15 * 60 + 1)
    for (let i = 0; i < 4; i++) await attempt(user.email, 'wrong-password')
    assert.equal((await attempt(user.email, user.password)).statusCode, 200)
  })

  it('throttles one client address after 100 failures, whatever the accounts', async () => {
    const ip = '198.51.100.9'
    for (let i = 0; i < 100; i++) {
      const res = await attempt(`nobody${i}@example.org`, 'wrong-password', ip)
      assert.equal(res.statusCode, 401, `attempt ${i}`)
    }
    const user = await createUser(t)
    const blocked = await attempt(user.email, user.password, ip)
    assert.equal(blocked.statusCode, 429)
    assert.ok(Number(blocked.headers['retry-after']) > 0)
    assert.equal((await attempt(user.email, user.password, '198.51.100.10')).statusCode, 200, 'another address is fine')
    t.clock.advance(15 * 60 + 1)
    assert.equal((await attempt(user.email, user.password, ip)).statusCode, 200, 'the address lock expires')
  })
})
