import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import { describe, it } from 'node:test'
import { useTestApp } from '../test/harness.ts'
import { createUser, injectAs, login } from '../test/factories.ts'

/**
 * S6: a forged refresh secret changes nothing; only a secret the session
 * really issued and rotated out is reuse. A client whose refresh
 * answer was lost recovers with the just-rotated-out cookie within the grace
 * window, without weakening reuse detection.
 */
describe('S6 refresh secrets, and recovery after a lost answer', () => {
  const t = useTestApp()

  const refresh = (cookie: string) =>
    t.app.inject({ method: 'GET', url: '/api/auth/refresh', cookies: { refresh_token: cookie } })
  const cookieOf = (res: Awaited<ReturnType<typeof refresh>>) =>
    res.cookies.find((c) => c.name === 'refresh_token')?.value
  const sessionOf = (cookie: string) => cookie.split('.')[0]!
  const forged = (cookie: string) => `${sessionOf(cookie)}.${crypto.randomBytes(32).toString('base64url')}`
  const alive = async (sessionId: string) =>
    (await t.database.db.selectFrom('sessions').select('id').where('id', '=', sessionId).executeTakeFirst()) !==
    undefined

  it('a valid session id with an unknown secret gets 401 and the owner stays signed in', async () => {
    const user = await createUser(t)
    const { token, refresh: first } = await login(t, user)
    t.clock.advance(30)
    const second = cookieOf(await refresh(first))!
    t.clock.advance(30)
    for (let i = 0; i < 3; i++) assert.equal((await refresh(forged(second))).statusCode, 401)
    assert.equal(await alive(sessionOf(second)), true)
    assert.equal((await injectAs(t, token)('GET', '/api/auth/me')).statusCode, 200)
    const third = await refresh(second)
    assert.equal(third.statusCode, 200, 'the owner’s cookie still rotates')
  })

  it('a secret the session rotated out long ago still revokes the whole session', async () => {
    const user = await createUser(t)
    const { refresh: first } = await login(t, user)
    t.clock.advance(30)
    const second = cookieOf(await refresh(first))!
    t.clock.advance(30)
    const third = cookieOf(await refresh(second))!
    t.clock.advance(30)
    assert.equal((await refresh(first)).statusCode, 401)
    assert.equal(await alive(sessionOf(third)), false)
    assert.equal((await refresh(third)).statusCode, 401)
  })

  it('an answer lost on the way: the old cookie within 10 s gets the rotated cookie again, which keeps working', async () => {
    const user = await createUser(t)
    const { refresh: first } = await login(t, user)
    const lost = cookieOf(await refresh(first))! // the client never receives this answer
    t.clock.advance(4)
    const retried = await refresh(first)
    assert.equal(retried.statusCode, 200)
    const recovered = cookieOf(retried)!
    assert.equal(recovered, lost)
    t.clock.advance(60) // well past the grace window
    const next = await refresh(recovered)
    assert.equal(next.statusCode, 200)
    // Reuse detection is intact: the old cookie, now past its grace, ends the session.
    assert.equal((await refresh(first)).statusCode, 401)
    assert.equal((await refresh(cookieOf(next)!)).statusCode, 401)
  })

  it('past the grace window the lost answer cannot be recovered: the old cookie is reuse', async () => {
    const user = await createUser(t)
    const { refresh: first } = await login(t, user)
    const lost = cookieOf(await refresh(first))!
    t.clock.advance(11)
    assert.equal((await refresh(first)).statusCode, 401)
    assert.equal((await refresh(lost)).statusCode, 401)
  })

  it('two tabs refreshing at once with one cookie end with the same cookie, which works after the grace window', async () => {
    const user = await createUser(t)
    const { refresh: first } = await login(t, user)
    const [a, b] = await Promise.all([refresh(first), refresh(first)])
    assert.deepEqual([a.statusCode, b.statusCode], [200, 200])
    assert.equal(cookieOf(a), cookieOf(b))
    t.clock.advance(60)
    assert.equal((await refresh(cookieOf(a)!)).statusCode, 200)
  })
})
