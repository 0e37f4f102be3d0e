import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { beforeEach, describe, it } from 'node:test'
import { useTestApp } from '../../test/harness.ts'
import { createUser, login, signedIn } from '../../test/factories.ts'
import { REPORTS_PER_MINUTE } from './client-errors.routes.ts'

/** Every JSON line the app logs, parsed. */
const lines: Record<string, any>[] = []
const stream = new Writable({
  write(chunk, _enc, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line))
    done()
  },
})
const reports = () => lines.filter((l) => l.msg === 'client error')

describe('POST /api/client-errors', () => {
  const t = useTestApp({}, { logger: { level: 'warn', stream } })
  let ipSeq = 0
  // Each test reports from its own address, so the windows of other tests do not count.
  let ip = ''
  beforeEach(() => {
    lines.length = 0
    ip = `198.51.100.${++ipSeq}`
  })

  const report = (payload: unknown, headers: Record<string, string> = {}, url = '/api/client-errors') =>
    t.app.inject({ method: 'POST', url, remoteAddress: ip, headers, payload: payload as object })

  it('answers 204 and writes one log line with the user id, the route path and the error, nothing more', async () => {
    const { user, token } = await signedIn(t)
    const res = await report(
      { message: 'Failed to fetch dynamically imported module', route: '/board?q=sarah#top', stack: 'at BoardPage' },
      { authorization: `Bearer ${token}` },
    )
    assert.equal(res.statusCode, 204)
    assert.equal(res.body, '')
    const [line, ...more] = reports()
    assert.equal(more.length, 0)
    assert.equal(line!.user_id, user.id)
    assert.deepEqual(line!.client_error, {
      message: 'Failed to fetch dynamically imported module',
      route: '/board',
      stack: 'at BoardPage',
    })
    const text = JSON.stringify(line)
    assert.ok(!text.includes(ip) && !text.includes(user.email) && !text.includes(token), 'no address, email or token')
  })

  it('accepts anonymous reports and reports from a user who must still change the password', async () => {
    assert.equal((await report({ message: 'boom', route: '/signin' })).statusCode, 204)
    assert.equal(reports()[0]!.user_id, null)
    const pending = await createUser(t, { forcePasswordReset: true })
    const { token } = await login(t, pending)
    assert.equal(
      (await report({ message: 'boom', route: '/change-password' }, { authorization: `Bearer ${token}` })).statusCode,
      204,
    )
    assert.equal(reports()[1]!.user_id, pending.id)
  })

  it('refuses an invalid token (401) rather than logging it as anonymous', async () => {
    const res = await report({ message: 'boom', route: '/board' }, { authorization: 'Bearer not-a-token' })
    assert.equal(res.statusCode, 401)
    assert.equal(reports().length, 0)
  })

  it('validates the body: 422 for missing, empty, mistyped or oversized fields', async () => {
    const bad: [unknown, string][] = [
      [{ route: '/board' }, 'message'],
      [{ message: '', route: '/board' }, 'message'],
      [{ message: 'x'.repeat(4001), route: '/board' }, 'message'],
      [{ message: 'boom' }, 'route'],
      [{ message: 'boom', route: 'board' }, 'route'],
      [{ message: 'boom', route: `/${'a'.repeat(2000)}` }, 'route'],
      [{ message: 'boom', route: '/board', stack: { lines: 1 } }, 'stack'],
      [{ message: 'boom', route: '/board', stack: 's'.repeat(16001) }, 'stack'],
      [{ message: 'nul\u0000', route: '/board' }, 'message'],
    ]
    for (const [payload, field] of bad) {
      const res = await report(payload)
      assert.equal(res.statusCode, 422, JSON.stringify(payload).slice(0, 80))
      assert.ok(
        res
          .json()
          .detail.some((e: { loc: string[] }) => e.loc[0] === 'body' && (e.loc[1] === field || e.loc.length === 1)),
        `${field}: ${res.body.slice(0, 200)}`,
      )
    }
    assert.equal((await report('not json', { 'content-type': 'application/json' })).statusCode, 422)
    assert.equal(reports().length, 0)
  })

  it('shortens long fields in the log line', async () => {
    const res = await report({ message: 'm'.repeat(4000), route: `/${'r'.repeat(1999)}`, stack: 's'.repeat(16000) })
    assert.equal(res.statusCode, 204)
    const logged = reports()[0]!.client_error
    assert.ok(logged.message.length <= 501 && logged.route.length <= 201 && logged.stack.length <= 2001)
  })

  it(`allows ${REPORTS_PER_MINUTE} reports a minute per address, then 429 too_many_attempts with Retry-After`, async () => {
    for (let i = 0; i < REPORTS_PER_MINUTE; i++) {
      assert.equal((await report({ message: `boom ${i}`, route: '/board' })).statusCode, 204, `report ${i}`)
    }
    t.clock.advance(20)
    const limited = await report({ message: 'one too many', route: '/board' })
    assert.equal(limited.statusCode, 429)
    assert.equal(limited.json().code, 'too_many_attempts')
    assert.equal(limited.headers['retry-after'], '40')
    // the root alias shares the window
    assert.equal((await report({ message: 'alias', route: '/board' }, {}, '/client-errors')).statusCode, 429)
    assert.equal(reports().length, REPORTS_PER_MINUTE)
    // another address is not affected; the window ends after a minute
    const before = ip
    ip = '203.0.113.200'
    assert.equal((await report({ message: 'elsewhere', route: '/board' })).statusCode, 204)
    ip = before
    t.clock.advance(40)
    assert.equal((await report({ message: 'later', route: '/board' })).statusCode, 204)
  })

  it('limits a signed-in user across addresses, and not other users at the same address', async () => {
    const first = await signedIn(t)
    const second = await signedIn(t)
    const auth = (token: string) => ({ authorization: `Bearer ${token}` })
    for (let i = 0; i < REPORTS_PER_MINUTE; i++) {
      ip = `192.0.2.${i + 1}`
      assert.equal((await report({ message: 'boom', route: '/board' }, auth(first.token))).statusCode, 204)
    }
    ip = '192.0.2.100'
    assert.equal((await report({ message: 'boom', route: '/board' }, auth(first.token))).statusCode, 429)
    assert.equal((await report({ message: 'boom', route: '/board' }, auth(second.token))).statusCode, 204)
  })
})
