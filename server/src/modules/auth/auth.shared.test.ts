import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp, type TestApp } from '../../test/harness.ts'
import { createUser, injectAs, login } from '../../test/factories.ts'
import { purgeExpired } from '../ops/housekeeping.ts'

/** docs/api-reference.md §13: a sign-in on a shared computer ends after 30 minutes without activity. */
const IDLE = 30 * 60

function signIn(t: TestApp, user: { email: string; password: string }, shared?: string) {
  const form: Record<string, string> = { username: user.email, password: user.password }
  if (shared !== undefined) form.shared_computer = shared
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  })
}

type Response = Awaited<ReturnType<typeof signIn>>
const cookieOf = (res: Response) => res.cookies.find((c) => c.name === 'refresh_token')

async function sharedSignIn(t: TestApp) {
  const user = await createUser(t)
  const res = await signIn(t, user, 'true')
  assert.equal(res.statusCode, 200, res.body)
  return { user, token: res.json().access_token as string, refresh: cookieOf(res)!.value }
}

function useRefresh(t: TestApp) {
  let cookie = ''
  return {
    set(value: string) {
      cookie = value
    },
    /** Refreshes with the current cookie and keeps the rotated one. */
    async run(): Promise<Response> {
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/refresh', cookies: { refresh_token: cookie } })
      const next = cookieOf(res)?.value
      if (res.statusCode === 200 && next) cookie = next
      return res
    },
  }
}

describe('shared-computer sign-in (docs/api-reference.md §13)', () => {
  const t = useTestApp()

  it('answers idle_timeout 1800 and sets a browser-session cookie (no Max-Age, no Expires)', async () => {
    const user = await createUser(t)
    const res = await signIn(t, user, 'true')
    assert.equal(res.statusCode, 200)
    assert.equal(res.json().idle_timeout, IDLE)
    const cookie = cookieOf(res)!
    assert.equal(cookie.maxAge, undefined)
    assert.equal(cookie.expires, undefined)
    assert.equal(cookie.httpOnly, true)
    // and the rotated cookie stays a session cookie
    const refresh = useRefresh(t)
    refresh.set(cookie.value)
    const rotated = await refresh.run()
    assert.equal(rotated.statusCode, 200)
    assert.equal(rotated.json().idle_timeout, IDLE)
    assert.equal(cookieOf(rotated)!.maxAge, undefined)
  })

  it('leaves a normal sign-in as it was: Max-Age of 7 days, no idle_timeout, alive after hours of silence', async () => {
    for (const shared of [undefined, 'false']) {
      const user = await createUser(t)
      const res = await signIn(t, user, shared)
      assert.equal(res.statusCode, 200)
      assert.equal('idle_timeout' in res.json(), false)
      assert.equal(cookieOf(res)!.maxAge, 7 * 24 * 3600)
      t.clock.advance(5 * 3600)
      const refresh = useRefresh(t)
      refresh.set(cookieOf(res)!.value)
      const later = await refresh.run()
      assert.equal(later.statusCode, 200, String(shared))
      assert.equal(cookieOf(later)!.maxAge, 7 * 24 * 3600 - 5 * 3600)
    }
  })

  it('keeps a shared session alive while it is used: refreshes 20 minutes apart for an hour', async () => {
    const { refresh: first } = await sharedSignIn(t)
    const refresh = useRefresh(t)
    refresh.set(first)
    for (let i = 0; i < 4; i++) {
      t.clock.advance(20 * 60)
      assert.equal((await refresh.run()).statusCode, 200, `refresh ${i + 1}`)
    }
  })

  it('counts authenticated requests as activity (recorded at most once a minute)', async () => {
    const { token, refresh: first } = await sharedSignIn(t)
    const as = injectAs(t, token)
    const loginAt = t.clock.iso()
    const lastUsed = async () => {
      const sessions = (await as('GET', '/api/auth/sessions')).json() as { current: boolean; last_used_at: string }[]
      return sessions.find((s) => s.current)!.last_used_at
    }
    t.clock.advance(30)
    assert.equal(await lastUsed(), loginAt, 'not written again within a minute')
    t.clock.advance(10 * 60)
    const touchedAt = t.clock.iso()
    assert.equal((await as('GET', '/api/auth/me')).statusCode, 200)
    assert.equal(await lastUsed(), touchedAt)
    // 35 minutes after sign-in, 25 after the last request: still alive
    t.clock.advance(25 * 60)
    const refresh = useRefresh(t)
    refresh.set(first)
    assert.equal((await refresh.run()).statusCode, 200)
  })

  it('ends a shared session after 30 minutes of silence: 401 session_idle, cookie cleared, session gone', async () => {
    const { refresh: first } = await sharedSignIn(t)
    t.clock.advance(IDLE)
    const refresh = useRefresh(t)
    refresh.set(first)
    const res = await refresh.run()
    assert.equal(res.statusCode, 401)
    assert.equal(res.json().code, 'session_idle')
    assert.equal(cookieOf(res)?.value, '', 'cookie cleared')
    // ended for good: activity afterwards does not bring it back
    const again = await refresh.run()
    assert.equal(again.statusCode, 401)
    assert.notEqual(again.json().code, 'session_idle')
  })

  it('still refreshes a shared session one second before the 30 minutes are up', async () => {
    const { refresh: first } = await sharedSignIn(t)
    t.clock.advance(IDLE - 1)
    const refresh = useRefresh(t)
    refresh.set(first)
    assert.equal((await refresh.run()).statusCode, 200)
  })

  it('housekeeping deletes shared sessions idle for 30 minutes, not live shared ones nor normal ones', async () => {
    const sessionIds = async () =>
      new Set((await t.database.db.selectFrom('sessions').select('id').execute()).map((r) => r.id))
    const idle = await sharedSignIn(t)
    const normal = await login(t, await createUser(t))
    t.clock.advance(IDLE - 60)
    const live = await sharedSignIn(t)
    t.clock.advance(60)
    await purgeExpired(t.database.db, t.clock.now())
    const left = await sessionIds()
    assert.equal(left.has(idle.refresh.split('.')[0]!), false)
    assert.equal(left.has(live.refresh.split('.')[0]!), true)
    assert.equal(left.has(normal.refresh.split('.')[0]!), true)
  })

  it('refuses shared_computer values other than true or false with 422', async () => {
    const user = await createUser(t)
    for (const value of ['yes', '1', 'on', '']) {
      const res = await signIn(t, user, value)
      assert.equal(res.statusCode, 422, value)
    }
    // a normal sign-in still works for that account afterwards (422s are not failures)
    assert.ok((await login(t, user)).token)
  })
})

describe('shared-computer session and a long-lived access token', () => {
  // Access tokens live at most 15 minutes in configuration; this one lives an
  // hour to show the per-request check ends an idle shared session by itself.
  const t = useTestApp({}, { config: { accessTokenTtlSeconds: 3600 } })

  it('stops the access token of a shared session idle for 30 minutes (401), not that of a normal one', async () => {
    const shared = await sharedSignIn(t)
    const normalUser = await createUser(t)
    const normal = await login(t, normalUser)
    t.clock.advance(20 * 60)
    assert.equal((await injectAs(t, shared.token)('GET', '/api/auth/me')).statusCode, 200, 'activity at 20 min')
    t.clock.advance(IDLE)
    assert.equal((await injectAs(t, shared.token)('GET', '/api/auth/me')).statusCode, 401)
    assert.equal((await injectAs(t, normal.token)('GET', '/api/auth/me')).statusCode, 200)
  })
})
