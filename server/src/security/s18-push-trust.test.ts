import assert from 'node:assert/strict'
import net from 'node:net'
import { after, before, describe, it } from 'node:test'
import { ConfigError, parseConfig } from '../config.ts'
import { addSeconds } from '../clock.ts'
import * as tokens from '../modules/accounts/tokens.repository.ts'
import { createUser, injectAs, login, signedIn, unique } from '../test/factories.ts'
import { useTestApp, type TestApp } from '../test/harness.ts'
import { newDevice, startPushService } from '../test/push.fixtures.ts'

const DEVICES = '/api/notifications/push/devices'
type Who = Awaited<ReturnType<typeof signedIn>>

/** S18: push devices end with the account's trust (docs/SECURITY.md "Push"). */
describe('S18 push ends with the account trust', () => {
  const t = useTestApp({ PUSH_ALLOW_PRIVATE: 'true' })
  let service: Awaited<ReturnType<typeof startPushService>>
  before(async () => {
    service = await startPushService()
  })
  after(() => service.close())

  /** A device of `who`, with a push waiting for it (its service answered 500 to the test: retried later). */
  async function deviceOf(who: Who) {
    const path = `/${unique('push')}`
    const saved = await who.as('POST', DEVICES, { ...newDevice(service.url(path)).body, label: 'Phone' })
    assert.equal(saved.statusCode, 201, saved.body)
    service.answer(path, 1, 500)
    const test = await who.as('POST', `${DEVICES}/${saved.json().id}/test`)
    assert.deepEqual(test.json(), { outcome: 'not_delivered' })
    assert.equal(await waiting(t, who.user.id), 1)
    return saved.json().id as number
  }
  const devices = async (userId: number) =>
    (await t.database.db.selectFrom('push_subscriptions').select('id').where('user_id', '=', userId).execute()).length

  /** The device of `userId` and every push queued for it are gone. */
  async function gone(userId: number, deviceId: number) {
    assert.equal(await devices(userId), 0, 'the devices are deleted')
    const queued = await t.database.db
      .selectFrom('push_outbox')
      .select('id')
      .where('subscription_id', '=', deviceId)
      .execute()
    assert.deepEqual(queued, [], 'and what waited for them')
  }
  const admin = () => signedIn(t, { permissions: ['users.manage'] })

  it('"sign out everywhere" deletes the devices; a plain sign-out keeps them', async () => {
    const who = await signedIn(t)
    const device = await deviceOf(who)
    assert.equal((await who.as('POST', '/api/auth/logout')).statusCode, 204)
    assert.equal(await devices(who.user.id), 1)
    const as = injectAs(t, (await login(t, who.user)).token)
    assert.equal((await as('POST', '/api/auth/logout?all=true')).statusCode, 204)
    await gone(who.user.id, device)
  })

  it("the user's own password change deletes them", async () => {
    const who = await signedIn(t)
    const device = await deviceOf(who)
    const res = await who.as('PATCH', `/api/users/${who.user.id}/password`, {
      old_password: who.user.password,
      new_password: `pw-${unique()}-${unique()}`,
    })
    assert.equal(res.statusCode, 200, res.body)
    await gone(who.user.id, device)
  })

  it("an administrator's password reset deletes them", async () => {
    const { as } = await admin()
    const who = await signedIn(t)
    const device = await deviceOf(who)
    const res = await as('PATCH', `/api/users/${who.user.id}/password`, { new_password: `pw-${unique()}-${unique()}` })
    assert.equal(res.statusCode, 200, res.body)
    await gone(who.user.id, device)
  })

  it('a reset by link deletes them', async () => {
    const who = await signedIn(t)
    const device = await deviceOf(who)
    const token = tokens.newLinkToken()
    await tokens.insertToken(t.database.db, {
      user_id: who.user.id,
      purpose: 'password_reset',
      token_hash: tokens.hashLinkToken(token),
      created_at: t.clock.iso(),
      expires_at: addSeconds(t.clock.now(), 600).toISOString(),
    })
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { token, new_password: `pw-${unique()}-${unique()}` },
    })
    assert.equal(res.statusCode, 200, res.body)
    await gone(who.user.id, device)
  })

  it('deactivation deletes them, and reactivation does not bring them back', async () => {
    const { as } = await admin()
    const user = await createUser(t)
    const { token, refresh } = await login(t, user)
    const device = await deviceOf({ user, token, refresh, as: injectAs(t, token) })
    const body = { email: user.email, fname: user.fname, lname: user.lname }
    assert.equal((await as('PUT', `/api/users/${user.id}`, { ...body, active: false })).statusCode, 200)
    await gone(user.id, device)
    assert.equal((await as('PUT', `/api/users/${user.id}`, { ...body, active: true })).statusCode, 200)
    await gone(user.id, device)
  })
})

const waiting = async (t: TestApp, userId: number) =>
  (
    await t.database.db
      .selectFrom('push_outbox as o')
      .innerJoin('push_subscriptions as s', 's.id', 'o.subscription_id')
      .select('o.id')
      .where('s.user_id', '=', userId)
      .where('o.status', '=', 'pending')
      .execute()
  ).length

describe('S18 a push endpoint is https on 443 at a public address', () => {
  // WEBHOOK_ALLOW_PRIVATE is for webhooks (proposals.manage); it never opens push to every user.
  const t = useTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_PORTS: '80,443,8443' })

  it('refuses http, other ports and non-public addresses even with WEBHOOK_ALLOW_PRIVATE', async () => {
    const who = await signedIn(t)
    for (const endpoint of [
      'http://127.0.0.1:9/x',
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://[::1]/x',
      'http://8.8.8.8/x',
      'https://8.8.8.8:8443/x',
      'https://8.8.8.8:80/x',
    ]) {
      const res = await who.as('POST', DEVICES, newDevice(endpoint).body)
      assert.equal(res.statusCode, 422, `${endpoint}: ${res.body}`)
      assert.deepEqual(res.json().detail[0].loc, ['body', 'endpoint'])
    }
    const ok = await who.as('POST', DEVICES, newDevice('https://8.8.8.8/push/x').body)
    assert.equal(ok.statusCode, 201, ok.body)
  })

  it('PUSH_ALLOW_PRIVATE is refused at start with NODE_ENV=production', () => {
    assert.throws(
      () => parseConfig({ PUSH_ALLOW_PRIVATE: 'true', NODE_ENV: 'production' }),
      (e: Error) => e instanceof ConfigError && e.message.includes('PUSH_ALLOW_PRIVATE'),
    )
    assert.equal(parseConfig({ PUSH_ALLOW_PRIVATE: 'true' }).pushAllowPrivate, true)
    assert.equal(parseConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }).pushAllowPrivate, false)
  })
})

describe('S18 a test push answers sent or not_delivered, nothing finer', () => {
  const t = useTestApp({ PUSH_ALLOW_PRIVATE: 'true' })
  let service: Awaited<ReturnType<typeof startPushService>>
  before(async () => {
    service = await startPushService()
  })
  after(() => service.close())

  it('a closed port, a refusal and a device that is gone answer alike', async () => {
    const who = await signedIn(t)
    // A port nothing listens on: take one, then close it.
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo
        server.close(() => resolve(port))
      })
    })
    const answers: unknown[] = []
    for (const [endpoint, status] of [
      [`http://127.0.0.1:${closed}/x`, null],
      [service.url('/refused'), 403],
      [service.url('/gone'), 410],
      [service.url('/ok'), null],
    ] as const) {
      if (status !== null) service.answer(new URL(endpoint).pathname, 1, status)
      const saved = await who.as('POST', DEVICES, { ...newDevice(endpoint).body, label: unique('d') })
      assert.equal(saved.statusCode, 201, saved.body)
      const res = await who.as('POST', `${DEVICES}/${saved.json().id}/test`)
      assert.equal(res.statusCode, 200, res.body)
      answers.push(res.json())
    }
    assert.deepEqual(answers, [
      { outcome: 'not_delivered' },
      { outcome: 'not_delivered' },
      { outcome: 'not_delivered' },
      { outcome: 'sent' },
    ])
  })
})
