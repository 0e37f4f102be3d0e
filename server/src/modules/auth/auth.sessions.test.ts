import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../test/harness.ts'
import { createUser, injectAs, login } from '../../test/factories.ts'

describe('refresh, rotation and reuse detection', () => {
  const t = useTestApp()

  const refresh = (cookie: string | null, method: 'GET' | 'POST' = 'GET') =>
    t.app.inject({ method, url: '/api/auth/refresh', cookies: cookie === null ? {} : { refresh_token: cookie } })
  const newCookie = (res: Awaited<ReturnType<typeof refresh>>) => res.cookies.find((c) => c.name === 'refresh_token')

  it('rotates the cookie on every call and returns a working access token (GET and POST)', async () => {
    const user = await createUser(t)
    const first = await login(t, user)
    const a = await refresh(first.refresh)
    assert.equal(a.statusCode, 200)
    const second = newCookie(a)!.value
    assert.notEqual(second, first.refresh)
    assert.equal(a.json().token_type, 'bearer')
    assert.equal((await injectAs(t, a.json().access_token)('GET', '/api/auth/me')).statusCode, 200)
    const b = await refresh(second, 'POST')
    assert.equal(b.statusCode, 200)
    assert.notEqual(newCookie(b)!.value, second)
    const rootAlias = await t.app.inject({
      method: 'GET',
      url: '/auth/refresh',
      cookies: { refresh_token: newCookie(b)!.value },
    })
    assert.equal(rootAlias.statusCode, 200)
  })

  it('sets Max-Age to the remaining lifetime of the session', async () => {
    const user = await createUser(t)
    const { refresh: cookie } = await login(t, user)
    t.clock.advance(3600)
    const res = await refresh(cookie)
    assert.equal(newCookie(res)!.maxAge, 7 * 24 * 3600 - 3600)
  })

  it('gives the just-rotated token a new access token within 10 s, and the same current cookie again (no second rotation)', async () => {
    const user = await createUser(t)
    const { refresh: first } = await login(t, user)
    const rotated = await refresh(first)
    const current = newCookie(rotated)!.value
    t.clock.advance(5)
    const grace = await refresh(first)
    assert.equal(grace.statusCode, 200)
    assert.equal(newCookie(grace)?.value, current, 'the cookie the rotation issued, not a new one')
    // the current cookie still works
    assert.equal((await refresh(current)).statusCode, 200)
  })

  it('revokes the whole session when an older token is presented (rotate twice, present the first)', async () => {
    const user = await createUser(t)
    const { refresh: first } = await login(t, user)
    const second = newCookie(await refresh(first))!.value
    t.clock.advance(1)
    const third = newCookie(await refresh(second))!.value
    const reused = await refresh(first)
    assert.equal(reused.statusCode, 401)
    assert.equal(newCookie(reused)?.value, '', 'cookie cleared')
    assert.equal((await refresh(third)).statusCode, 401, 'the session is dead')
  })

  it('revokes the session when the just-rotated token comes back after the grace window', async () => {
    const user = await createUser(t)
    const login1 = await login(t, user)
    const second = newCookie(await refresh(login1.refresh))!.value
    t.clock.advance(11)
    assert.equal((await refresh(login1.refresh)).statusCode, 401)
    assert.equal((await refresh(second)).statusCode, 401)
    // the access token of that session stops too
    assert.equal((await injectAs(t, login1.token)('GET', '/api/auth/me')).statusCode, 401)
  })

  it('answers 401 and clears the cookie for a missing, malformed or unknown cookie', async () => {
    for (const cookie of [null, 'garbage', 'AAAAAAAAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB']) {
      const res = await refresh(cookie)
      assert.equal(res.statusCode, 401, String(cookie))
      assert.equal(typeof res.json().detail, 'string')
      assert.equal(newCookie(res)?.value, '')
    }
  })

  it('ends sessions 7 days after login however often they are refreshed (absolute)', async () => {
    const user = await createUser(t)
    let cookie = (await login(t, user)).refresh
    for (let day = 0; day < 6; day++) {
      t.clock.advance(24 * 3600)
      const res = await refresh(cookie)
      assert.equal(res.statusCode, 200)
      cookie = newCookie(res)!.value
    }
    t.clock.advance(24 * 3600 + 1)
    assert.equal((await refresh(cookie)).statusCode, 401)
  })

  it('two concurrent refreshes with one cookie both succeed (two tabs are not logged out)', async () => {
    const user = await createUser(t)
    const { refresh: cookie } = await login(t, user)
    const [a, b] = await Promise.all([refresh(cookie), refresh(cookie)])
    assert.deepEqual([a.statusCode, b.statusCode], [200, 200])
  })
})

describe('logout and the session list', () => {
  const t = useTestApp()

  it('logout answers 204 with no body, clears the cookie and stops the access token at once', async () => {
    const user = await createUser(t)
    const { token, refresh } = await login(t, user)
    const res = await injectAs(t, token)('POST', '/api/auth/logout')
    assert.equal(res.statusCode, 204)
    assert.equal(res.body, '')
    assert.equal(res.cookies.find((c) => c.name === 'refresh_token')?.value, '')
    assert.equal((await injectAs(t, token)('GET', '/api/auth/me')).statusCode, 401)
    const again = await t.app.inject({ method: 'GET', url: '/api/auth/refresh', cookies: { refresh_token: refresh } })
    assert.equal(again.statusCode, 401)
  })

  it('logout ?all=true ends every session of the user, and only theirs', async () => {
    const user = await createUser(t)
    const other = await createUser(t)
    const a = await login(t, user)
    const b = await login(t, user)
    const c = await login(t, other)
    assert.equal((await injectAs(t, a.token)('POST', '/api/auth/logout?all=true')).statusCode, 204)
    assert.equal((await injectAs(t, b.token)('GET', '/api/auth/me')).statusCode, 401)
    assert.equal((await injectAs(t, c.token)('GET', '/api/auth/me')).statusCode, 200)
  })

  it('lists the caller’s own sessions and ends one of them', async () => {
    const user = await createUser(t)
    const a = await login(t, user)
    const b = await login(t, user)
    const list = await injectAs(t, a.token)('GET', '/api/auth/sessions')
    assert.equal(list.statusCode, 200)
    assert.equal(list.json().length, 2)
    assert.equal(list.json().filter((s: { current: boolean }) => s.current).length, 1)
    const other = list.json().find((s: { current: boolean }) => !s.current)
    assert.equal((await injectAs(t, a.token)('DELETE', `/api/auth/sessions/${other.id}`)).statusCode, 204)
    assert.equal((await injectAs(t, b.token)('GET', '/api/auth/me')).statusCode, 401)
    assert.equal((await injectAs(t, a.token)('GET', '/api/auth/me')).statusCode, 200)
  })

  it('answers 404 when ending a session that is not the caller’s', async () => {
    const user = await createUser(t)
    const stranger = await createUser(t)
    const mine = await login(t, user)
    const theirs = await login(t, stranger)
    const [session] = (await injectAs(t, theirs.token)('GET', '/api/auth/sessions')).json()
    const res = await injectAs(t, mine.token)('DELETE', `/api/auth/sessions/${session.id}`)
    assert.equal(res.statusCode, 404)
    assert.equal(res.json().code, 'not_found')
    assert.equal((await injectAs(t, theirs.token)('GET', '/api/auth/me')).statusCode, 200)
  })
})
