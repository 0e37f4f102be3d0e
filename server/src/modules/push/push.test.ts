import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ALL_PERMISSIONS, signedIn, unique } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { createWard, highCouncilors, presidency, submit } from '../../test/proposals.fixtures.ts'
import { decryptPush, newDevice, startPushService, verifyVapid } from '../../test/push.fixtures.ts'
import webPush from 'web-push'
import { PushWorker } from './push.worker.ts'

const DEVICES = '/api/notifications/push/devices'

/**
 * Web Push (docs/api-reference.md §11) through HTTP against a fresh database: a local HTTP
 * server stands in for the push service (so this file sets PUSH_ALLOW_PRIVATE for private
 * addresses), and every push it receives is decrypted here with the
 * device's own keys (RFC 8291) and its VAPID signature checked (RFC 8292).
 */
describe('push notifications', () => {
  const t = useTestApp({ PUSH_ALLOW_PRIVATE: 'true', MAIL_FROM: 'Stake <stake@example.org>' })
  let service: Awaited<ReturnType<typeof startPushService>>
  let worker: PushWorker
  let publicKey: string
  let ward: number
  let admin: Awaited<ReturnType<typeof signedIn>>
  let sp: Awaited<ReturnType<typeof presidency>>

  before(async () => {
    service = await startPushService()
    worker = new PushWorker({ db: t.database.db, dialect: t.database.dialect, clock: t.clock, config: t.config })
    admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    ward = await createWard(t.database.db, unique('Ward '))
    sp = await presidency(t)
    const res = await admin.as('GET', '/api/notifications/push/key')
    assert.equal(res.statusCode, 200, res.body)
    publicKey = res.json().public_key
    assert.equal(Buffer.from(publicKey, 'base64url').length, 65)
  })
  after(() => service.close())

  async function subscribe(as: typeof admin.as, label = 'Phone') {
    const path = `/${unique('push')}`
    const device = newDevice(service.url(path))
    const res = await as('POST', DEVICES, { ...device.body, label })
    assert.equal(res.statusCode, 201, res.body)
    return { ...device, path, id: res.json().id as number }
  }

  it('keeps one VAPID key pair: the same public key on every call', async () => {
    const again = await admin.as('GET', '/api/notifications/push/key')
    assert.equal(again.json().public_key, publicKey)
  })

  it('a vote that is needed reaches each of the voter’s devices, encrypted for it and signed', async () => {
    const { president } = sp
    const phone = await subscribe(president.as, 'Phone')
    const laptop = await subscribe(president.as, 'Laptop')
    const p = await submit(admin.as, ward, { fname: 'Ada', lname: 'Lovelace', proposed_calling: 'Ward clerk' })
    assert.equal(service.at(phone.path).length, 0, 'nothing is sent from the request itself')
    await worker.runOnce()
    const unread = Number((await president.as('GET', '/api/notifications')).headers['x-unread-count'])
    for (const device of [phone, laptop]) {
      const [push, ...more] = service.at(device.path)
      assert.ok(push, 'the device got its push')
      assert.equal(more.length, 0)
      assert.equal(push.headers['content-encoding'], 'aes128gcm')
      assert.ok(Number(push.headers.ttl) > 0)
      const claims = verifyVapid(push.headers.authorization, publicKey, service.url(device.path))
      assert.equal(claims.sub, 'mailto:stake@example.org')
      const payload = JSON.parse(decryptPush(device, push.body))
      assert.deepEqual(payload, {
        title: 'A proposal awaits your vote',
        body: payload.body,
        url: `/proposals/${p.id}`,
        tag: `proposal-${p.id}`,
        // A vote owed: the notification's two buttons (the page casts the vote, with its undo).
        actions: [
          { action: 'approve', title: 'Approve' },
          { action: 'reject', title: 'Reject' },
        ],
        unread,
      })
      assert.match(payload.body, /Ada Lovelace as Ward clerk/)
    }
    // Someone else's device cannot read it: another device's keys fail to decrypt.
    const stranger = newDevice(service.url('/x'))
    assert.throws(() => decryptPush(stranger, service.at(phone.path)[0]!.body))
    await worker.runOnce()
    assert.equal(service.at(phone.path).length, 1, 'sent once')
  })

  it('the badge a push sets drops once the work it asked for is done (docs/api-reference.md §11)', async () => {
    const { president } = sp
    const phone = await subscribe(president.as)
    try {
      const first = await submit(admin.as, ward)
      await worker.runOnce()
      const badgeOf = (n: number) => JSON.parse(decryptPush(phone, service.at(phone.path)[n]!.body)).unread as number
      const before = badgeOf(0)
      assert.ok(before >= 1)
      const voted = await president.as('POST', `/api/calling-kanban/proposals/${first.id}/approvals?approved=true`)
      assert.equal(voted.statusCode, 201, voted.body)
      await submit(admin.as, ward)
      await worker.runOnce()
      // One request settled by the vote, one new: the same count, not one more.
      assert.equal(badgeOf(1), before)
    } finally {
      await president.as('DELETE', `${DEVICES}/${phone.id}`)
    }
  })

  it('only a vote owed carries the Approve and Reject buttons, in the recipient’s language', async () => {
    const { president } = sp
    const own = await subscribe(admin.as)
    const phone = await subscribe(president.as)
    const speaks = (language: string) =>
      president.as('PUT', `/api/users/${president.user.id}`, {
        email: president.user.email,
        fname: president.user.fname,
        lname: president.user.lname,
        language,
      })
    assert.equal((await speaks('es')).statusCode, 200)
    try {
      const p = await submit(admin.as, ward, { fname: 'Berta', lname: 'Ríos', proposed_calling: 'Ward clerk' })
      await worker.runOnce()
      const vote = JSON.parse(decryptPush(phone, service.at(phone.path)[0]!.body))
      assert.equal(vote.title, 'Una propuesta espera su voto')
      assert.deepEqual(vote.actions, [
        { action: 'approve', title: 'Aprobar' },
        { action: 'reject', title: 'Rechazar' },
      ])
      // A comment to the submitter asks for no vote: no buttons.
      const comment = await president.as('POST', `/api/calling-kanban/proposals/${p.id}/comments`, {
        proposal_id: p.id,
        commenter_id: president.user.id,
        comment_text: 'Buena idea',
      })
      assert.equal(comment.statusCode, 201, comment.body)
      await worker.runOnce()
      const [note] = service.at(own.path)
      assert.ok(note, 'the submitter got the comment')
      const payload = JSON.parse(decryptPush(own, note.body))
      assert.equal(payload.url, `/proposals/${p.id}`)
      assert.equal('actions' in payload, false)
    } finally {
      await speaks('en')
      await admin.as('DELETE', `${DEVICES}/${own.id}`)
      await president.as('DELETE', `${DEVICES}/${phone.id}`)
    }
  })

  it('S9 as the inbox: a high councilor’s device gets nothing about a proposal at sp_approval, nor the submitter about their own', async () => {
    const [hc] = await highCouncilors(t, 1)
    const hcDevice = await subscribe(hc!.as)
    const own = await subscribe(admin.as)
    await submit(admin.as, ward)
    await worker.runOnce()
    assert.equal(service.at(hcDevice.path).length, 0)
    assert.equal(service.at(own.path).length, 0, 'nobody is notified of their own action')
    const inbox = await hc!.as('GET', '/api/notifications')
    assert.equal(inbox.json().length, 0)
    await admin.as('DELETE', `${DEVICES}/${own.id}`)
  })

  it('a 404 or 410 from the push service removes the device and its pending pushes', async () => {
    const { first } = sp
    for (const status of [410, 404]) {
      const device = await subscribe(first.as)
      service.answer(device.path, 1, status)
      await submit(admin.as, ward)
      await submit(admin.as, ward)
      await worker.runOnce()
      const list = await first.as('GET', DEVICES)
      assert.deepEqual(list.json(), [], `${status}: the device is gone`)
      const left = await t.database.db
        .selectFrom('push_outbox')
        .select('id')
        .where('subscription_id', '=', device.id)
        .execute()
      assert.equal(left.length, 0)
    }
  })

  it('another failure is retried on the schedule, then delivered', async () => {
    const { second } = sp
    const device = await subscribe(second.as)
    service.answer(device.path, 1, 503)
    await submit(admin.as, ward)
    await worker.runOnce()
    const [row] = await t.database.db
      .selectFrom('push_outbox')
      .selectAll()
      .where('subscription_id', '=', device.id)
      .execute()
    assert.equal(row?.status, 'pending')
    assert.equal(row?.attempts, 1)
    assert.equal(row?.last_error, 'HTTP 503')
    t.clock.advance(60_000)
    await worker.runOnce()
    const after = await t.database.db.selectFrom('push_outbox').selectAll().where('id', '=', row!.id).executeTakeFirst()
    assert.equal(after?.status, 'sent')
    assert.equal(service.at(device.path).length, 2)
  })

  it('the profile: list, test push, the same endpoint again updates the row, delete; another user’s device is 404', async () => {
    const user = await signedIn(t)
    const other = await signedIn(t)
    const device = await subscribe(user.as, 'My phone')
    const listed = await user.as('GET', DEVICES)
    assert.deepEqual(
      listed.json().map((d: { id: number; label: string }) => [d.id, d.label]),
      [[device.id, 'My phone']],
    )
    assert.ok(!listed.body.includes(device.body.keys.auth), 'never the keys')

    const test = await user.as('POST', `${DEVICES}/${device.id}/test`)
    assert.equal(test.statusCode, 200, test.body)
    assert.deepEqual(test.json(), { outcome: 'sent' })
    const payload = JSON.parse(decryptPush(device, service.at(device.path).at(-1)!.body))
    assert.equal(payload.title, 'Test notification')

    for (const [method, url] of [
      ['POST', `${DEVICES}/${device.id}/test`],
      ['DELETE', `${DEVICES}/${device.id}`],
    ] as const) {
      const res = await other.as(method, url)
      assert.equal(res.statusCode, 404, `${method} ${url}`)
      assert.equal(res.json().code, 'not_found')
    }
    assert.deepEqual((await other.as('GET', DEVICES)).json(), [])

    // The same browser, now signed in as the other user: one row, theirs.
    const again = await other.as('POST', DEVICES, { ...device.body, label: 'Shared tablet' })
    assert.equal(again.statusCode, 201)
    assert.equal(again.json().id, device.id)
    assert.deepEqual((await user.as('GET', DEVICES)).json(), [])
    assert.equal((await other.as('DELETE', `${DEVICES}/${device.id}`)).statusCode, 204)
    assert.equal((await other.as('DELETE', `${DEVICES}/${device.id}`)).statusCode, 404)
  })

  it('a device that is gone answers the test push with `not_delivered` and is removed', async () => {
    const user = await signedIn(t)
    const device = await subscribe(user.as)
    service.answer(device.path, 1, 410)
    const res = await user.as('POST', `${DEVICES}/${device.id}/test`)
    assert.deepEqual(res.json(), { outcome: 'not_delivered' })
    assert.deepEqual((await user.as('GET', DEVICES)).json(), [])
  })

  it('refuses malformed subscriptions with 422 (never a 500) and anonymous callers with 401', async () => {
    const user = await signedIn(t)
    const good = newDevice(service.url('/ok')).body
    const cases: [unknown, string][] = [
      [{ ...good, endpoint: 'not a url' }, 'endpoint'],
      [{ ...good, endpoint: 'ftp://push.example.org/x' }, 'endpoint'],
      [{ ...good, keys: { ...good.keys, p256dh: 'AAAA' } }, 'p256dh'],
      [{ ...good, keys: { ...good.keys, p256dh: 'not+base64/url' } }, 'p256dh'],
      [{ ...good, keys: { ...good.keys, auth: Buffer.alloc(8).toString('base64url') } }, 'auth'],
      [{ ...good, keys: { p256dh: 1, auth: good.keys.auth } }, 'p256dh'],
      [{ endpoint: good.endpoint }, 'keys'],
      [{ ...good, label: 7 }, 'label'],
    ]
    for (const [body, field] of cases) {
      const res = await user.as('POST', DEVICES, body)
      assert.equal(res.statusCode, 422, `${JSON.stringify(body)}: ${res.body}`)
      assert.ok(res.body.includes(field), res.body)
    }
    assert.equal((await user.as('POST', `${DEVICES}/0x10/test`)).statusCode, 422)
    const anonymous = await t.app.inject({ method: 'GET', url: DEVICES })
    assert.equal(anonymous.statusCode, 401)
  })
})

describe('push notifications: only public https push services', () => {
  const t = useTestApp()
  it('refuses http and private addresses without PUSH_ALLOW_PRIVATE', async () => {
    const user = await signedIn(t)
    for (const endpoint of ['http://push.example.org/x', 'https://127.0.0.1/x', 'https://10.1.2.3/x']) {
      const res = await user.as('POST', DEVICES, newDevice(endpoint).body)
      assert.equal(res.statusCode, 422, `${endpoint}: ${res.body}`)
    }
  })
})

describe('push notifications: the key pair from the environment', () => {
  const pair = webPush.generateVAPIDKeys()
  const t = useTestApp({
    PUSH_ALLOW_PRIVATE: 'true',
    VAPID_PUBLIC_KEY: pair.publicKey,
    VAPID_PRIVATE_KEY: pair.privateKey,
  })
  let service: Awaited<ReturnType<typeof startPushService>>
  before(async () => {
    service = await startPushService()
  })
  after(() => service.close())

  it('VAPID_PUBLIC_KEY is the key the browser gets and pushes are signed with its pair; nothing is stored', async () => {
    const user = await signedIn(t)
    const res = await user.as('GET', '/api/notifications/push/key')
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(res.json(), { public_key: pair.publicKey })

    const path = `/${unique('push')}`
    const device = newDevice(service.url(path))
    const saved = await user.as('POST', DEVICES, { ...device.body, label: 'Phone' })
    assert.equal(saved.statusCode, 201, saved.body)
    const test = await user.as('POST', `${DEVICES}/${saved.json().id}/test`)
    assert.deepEqual(test.json(), { outcome: 'sent' })
    verifyVapid(service.at(path).at(-1)!.headers.authorization, pair.publicKey, service.url(path))

    const stored = await t.database.db
      .selectFrom('app_settings')
      .select('key')
      .where('key', '=', 'vapid_keys')
      .execute()
    assert.deepEqual(stored, [])
  })
})
