import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createUser, injectAs, login, signedIn, unique } from '../test/factories.ts'
import { useTestApp } from '../test/harness.ts'

type Who = Awaited<ReturnType<typeof signedIn>>

/** S13: a calendar feed ends with the account's trust, and its owner can see that it exists. */
describe('S13 feeds end with the account trust', () => {
  const t = useTestApp({ PUBLIC_URL: 'https://stake.example.org' })
  const admin = () => signedIn(t, { permissions: ['users.manage'] })

  /** Creates the user's feed; returns the path of its .ics address. */
  async function feedOf(who: Who): Promise<string> {
    const res = await who.as('POST', '/api/speaking/feed')
    assert.equal(res.statusCode, 200, res.body)
    const path = new URL(res.json().url as string).pathname
    assert.equal((await t.app.inject({ method: 'GET', url: path })).statusCode, 200)
    return path
  }
  const feedAnswers = async (path: string) => (await t.app.inject({ method: 'GET', url: path })).statusCode

  it('GET /speaking/feed says whether a feed exists and since when, never its address', async () => {
    const who = await signedIn(t)
    assert.deepEqual((await who.as('GET', '/api/speaking/feed')).json(), { active: false, created_at: null })
    const created = t.clock.iso()
    const path = await feedOf(who)
    const status = await who.as('GET', '/api/speaking/feed')
    assert.equal(status.statusCode, 200)
    assert.deepEqual(status.json(), { active: true, created_at: created })
    assert.ok(!status.body.includes(path.split('/').pop()!.replace('.ics', '')))
    assert.equal((await who.as('DELETE', '/api/speaking/feed')).statusCode, 204)
    assert.equal((await who.as('GET', '/api/speaking/feed')).json().active, false)
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/speaking/feed' })).statusCode, 401)
  })

  it('"sign out everywhere" revokes the feed; a plain sign-out keeps it', async () => {
    const who = await signedIn(t)
    const path = await feedOf(who)
    assert.equal((await who.as('POST', '/api/auth/logout')).statusCode, 204)
    assert.equal(await feedAnswers(path), 200, 'one session ended: the feed stays')

    const as = injectAs(t, (await login(t, who.user)).token)
    assert.equal((await as('POST', '/api/auth/logout?all=true')).statusCode, 204)
    assert.equal(await feedAnswers(path), 404)
    const fresh = injectAs(t, (await login(t, who.user)).token)
    assert.deepEqual((await fresh('GET', '/api/speaking/feed')).json(), { active: false, created_at: null })
  })

  it("an administrator's password reset revokes the user's feed; the user's own change keeps it", async () => {
    const { as } = await admin()
    const who = await signedIn(t)
    const path = await feedOf(who)
    const own = await who.as('PATCH', `/api/users/${who.user.id}/password`, {
      old_password: who.user.password,
      new_password: `pw-${unique()}-${unique()}`,
    })
    assert.equal(own.statusCode, 200, own.body)
    assert.equal(await feedAnswers(path), 200)

    const reset = await as('PATCH', `/api/users/${who.user.id}/password`, {
      new_password: `pw-${unique()}-${unique()}`,
    })
    assert.equal(reset.statusCode, 200, reset.body)
    assert.equal(await feedAnswers(path), 404)
  })

  it('deactivation revokes the feed, and reactivation does not bring it back', async () => {
    const { as } = await admin()
    const user = await createUser(t)
    const { token, refresh } = await login(t, user)
    const who: Who = { user, token, refresh, as: injectAs(t, token) }
    const path = await feedOf(who)
    const body = { email: user.email, fname: user.fname, lname: user.lname }
    assert.equal((await as('PUT', `/api/users/${user.id}`, { ...body, active: false })).statusCode, 200)
    assert.equal(await feedAnswers(path), 404)
    assert.equal((await as('PUT', `/api/users/${user.id}`, { ...body, active: true })).statusCode, 200)
    assert.equal(await feedAnswers(path), 404)
    const row = await t.database.db
      .selectFrom('speaking_feeds')
      .select('user_id')
      .where('user_id', '=', user.id)
      .executeTakeFirst()
    assert.equal(row, undefined)
  })

  it('a refused reset (the target holds more than the actor) leaves the feed alone', async () => {
    const { as } = await admin()
    const stronger = await signedIn(t, { permissions: ['users.manage', 'proposals.manage'] })
    const path = await feedOf(stronger)
    const res = await as('PATCH', `/api/users/${stronger.user.id}/password`, {
      new_password: `pw-${unique()}-${unique()}`,
    })
    assert.equal(res.statusCode, 403)
    assert.equal(await feedAnswers(path), 200)
  })
})
