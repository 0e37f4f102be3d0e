import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, it } from 'node:test'
import { ALL_PERMISSIONS, injectAs, login, signedIn, unique } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { createWard, highCouncilors, move, submit } from '../../test/proposals.fixtures.ts'
import { MAX_ATTEMPTS } from '../../delivery/schedule.ts'
import { startReceiver, verifies, type Received } from '../../test/webhooks.fixtures.ts'
import { WebhookWorker } from './webhooks.worker.ts'

const PROPOSALS = '/api/calling-kanban/proposals'

/**
 * Deliveries to a real HTTP receiver on 127.0.0.1 (so this file allows
 * private addresses), driven by the injected clock: the worker is run by
 * hand (runOnce), as the server's timer would.
 */
describe('webhooks: deliveries to a real receiver', () => {
  const t = useTestApp({
    WEBHOOK_ALLOW_PRIVATE: 'true',
    PUBLIC_URL: 'https://stake.example.org/admin',
    HC_APPROVALS_REQUIRED: '2',
  })
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let admin: Awaited<ReturnType<typeof signedIn>>
  let ward: number
  let worker: WebhookWorker

  before(async () => {
    receiver = await startReceiver()
    admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    ward = await createWard(t.database.db, unique('Ward '))
    worker = new WebhookWorker({ db: t.database.db, dialect: t.database.dialect, clock: t.clock, config: t.config })
  })
  after(() => receiver.close())
  /** The clock moves in these tests: a fresh access token for each test (and after long waits). */
  const signInAgain = async () => {
    admin = { ...admin, as: injectAs(t, (await login(t, admin.user)).token) }
  }
  beforeEach(signInAgain)

  /** A webhook posting to its own receiver path. */
  async function hook(events: string[], options: { format?: string; include_names?: boolean } = {}) {
    const path = `/${unique('hook')}`
    const res = await admin.as('POST', '/api/webhooks', { url: receiver.url(path), events, ...options })
    assert.equal(res.statusCode, 201, res.body)
    return { ...(res.json() as { id: number; secret: string }), path }
  }
  const deliveries = async (id: number) => {
    const res = await admin.as('GET', `/api/webhooks/${id}/deliveries`)
    assert.equal(res.statusCode, 200, res.body)
    return res.json() as {
      id: number
      event: string
      status: string
      attempts: number
      last_status_code: number | null
      last_error: string | null
      created_at: string
      delivered_at: string | null
    }[]
  }
  const bodies = (path: string) => receiver.at(path).map((r) => JSON.parse(r.body))

  it('json: one signed delivery per event with the proposal facts and its link, no names, no spouse', async () => {
    const h = await hook(['proposal_created', 'stage_changed'])
    const p = await submit(admin.as, ward, { spouse_name: 'Spouse-Secret', proposed_calling: 'Ward clerk' })
    assert.equal(receiver.at(h.path).length, 0, 'nothing is posted from the request itself')
    await worker.runOnce()
    const [request, ...more] = receiver.at(h.path)
    assert.ok(request)
    assert.equal(more.length, 0)
    assert.ok(verifies(h.secret, request), 'the signature verifies with the secret')
    assert.equal(request.headers['content-type'], 'application/json')
    assert.equal(request.headers['x-stake-timestamp'], String(Math.floor(t.clock.now().getTime() / 1000)))
    assert.ok(!verifies('whsec_wrong', request))
    assert.deepEqual(JSON.parse(request.body), {
      event: 'proposal_created',
      at: t.clock.iso(),
      proposal: {
        id: p.id,
        proposed_calling: 'Ward clerk',
        ward_id: ward,
        stage: 'sp_approval',
        kind: 'call',
        office: null,
        url: `https://stake.example.org/admin/proposals/${p.id}`,
      },
    })
    assert.ok(!request.body.includes(p.fname) && !request.body.includes('Spouse-Secret'))
    const [logged] = await deliveries(h.id)
    assert.equal(logged?.status, 'delivered')
    assert.equal(logged?.attempts, 1)
    assert.equal(logged?.last_status_code, 204)
    assert.equal(logged?.delivered_at, t.clock.iso())
  })

  it('names the person only when include_names is on, and never the spouse', async () => {
    const named = await hook(['proposal_created'], { include_names: true })
    const plain = await hook(['proposal_created'])
    const p = await submit(admin.as, ward, { spouse_name: 'Spouse-Secret' })
    await worker.runOnce()
    const [withNames] = bodies(named.path)
    assert.deepEqual(withNames.names, { fname: p.fname, lname: p.lname })
    assert.ok(!JSON.stringify(withNames).includes('Spouse-Secret'))
    const [without] = bodies(plain.path)
    assert.equal('names' in without, false)
    assert.ok(!JSON.stringify(without).includes(p.fname))
  })

  it('turning include_names off also strips the names from deliveries still waiting', async () => {
    const h = await hook(['proposal_created'], { include_names: true })
    receiver.fail(h.path, 1)
    const p = await submit(admin.as, ward)
    await worker.runOnce()
    assert.equal(bodies(h.path)[0].names.lname, p.lname)
    const put = await admin.as('PUT', `/api/webhooks/${h.id}`, {
      url: receiver.url(h.path),
      events: ['proposal_created'],
    })
    assert.equal(put.statusCode, 200, put.body)
    t.clock.advance(30)
    await worker.runOnce()
    const retried = bodies(h.path)[1]
    assert.equal(retried.event, 'proposal_created')
    assert.equal('names' in retried, false)
  })

  it('slack and discord: the same facts in each incoming-webhook format, names escaped, mentions off', async () => {
    const slack = await hook(['stage_changed'], { format: 'slack', include_names: true })
    const discord = await hook(['stage_changed'], { format: 'discord', include_names: true })
    const p = await submit(admin.as, ward, {
      fname: '<!channel>',
      lname: '@everyone',
      proposed_calling: 'Sunday School',
    })
    await move(admin.as, p.id, 'advance', 'sp_approval')
    await worker.runOnce()
    const link = `https://stake.example.org/admin/proposals/${p.id}`

    const [s] = receiver.at(slack.path)
    assert.ok(s && verifies(slack.secret, s))
    const sBody = JSON.parse(s.body)
    assert.equal(typeof sBody.text, 'string')
    assert.match(sBody.text, /Proposal moved to High council approval/)
    assert.match(sBody.text, /Sunday School/)
    assert.ok(sBody.text.includes(link))
    assert.ok(sBody.text.includes('&lt;!channel&gt;') && !sBody.text.includes('<!channel>'), 'no Slack mention')
    assert.ok(Array.isArray(sBody.blocks) && sBody.blocks[0].type === 'section')

    const [d] = receiver.at(discord.path)
    assert.ok(d && verifies(discord.secret, d))
    const dBody = JSON.parse(d.body)
    assert.match(dBody.content, /Proposal moved to High council approval/)
    assert.deepEqual(dBody.allowed_mentions, { parse: [] })
    assert.equal(dBody.embeds[0].url, link)
    assert.ok(dBody.embeds[0].fields.some((f: { value: string }) => f.value === 'High council approval'))
  })

  it('retries on the shared schedule: two failures, then delivered on the third try (injected clock)', async () => {
    const h = await hook(['proposal_created'])
    receiver.fail(h.path, 2, 503)
    await submit(admin.as, ward)
    await worker.runOnce()
    let [d] = await deliveries(h.id)
    assert.deepEqual([d?.status, d?.attempts, d?.last_status_code], ['pending', 1, 503])
    assert.match(String(d?.last_error), /503/)

    t.clock.advance(29)
    await worker.runOnce()
    assert.equal(receiver.at(h.path).length, 1, 'not retried before 30 s')
    t.clock.advance(1)
    await worker.runOnce()
    ;[d] = await deliveries(h.id)
    assert.deepEqual([d?.status, d?.attempts], ['pending', 2])

    t.clock.advance(90) // 2 min after the event
    await worker.runOnce()
    ;[d] = await deliveries(h.id)
    assert.deepEqual([d?.status, d?.attempts, d?.last_status_code, d?.last_error], ['delivered', 3, 204, null])
    const three = receiver.at(h.path)
    assert.equal(three.length, 3)
    assert.ok(three.every((r) => verifies(h.secret, r)))
    assert.equal(new Set(three.map((r) => r.headers['x-stake-delivery'])).size, 1, 'the same delivery each time')
  })

  it('marks a delivery failed after the last scheduled try', async () => {
    const h = await hook(['proposal_created'])
    receiver.fail(h.path, 100, 500)
    await submit(admin.as, ward)
    for (let i = 0; i < MAX_ATTEMPTS + 2; i++) {
      await worker.runOnce()
      t.clock.advance(6 * 3600)
    }
    await signInAgain()
    const [d] = await deliveries(h.id)
    assert.deepEqual([d?.status, d?.attempts, d?.last_status_code], ['failed', MAX_ATTEMPTS, 500])
    assert.equal(receiver.at(h.path).length, MAX_ATTEMPTS)
  })

  it('each event kind comes from its action; a decline is `declined` only; unsubscribed events send nothing', async () => {
    const all = await hook(['proposal_created', 'stage_changed', 'declined', 'interview_assigned', 'comment'])
    const onlyComments = await hook(['comment'])
    const hcs = await highCouncilors(t, 2)
    const p = await submit(admin.as, ward)
    await move(admin.as, p.id, 'advance', 'sp_approval')
    for (const hc of hcs) await hc.as('POST', `${PROPOSALS}/${p.id}/approvals?approved=true`) // auto-advance
    const assign = await admin.as('POST', `${PROPOSALS}/${p.id}/interview?interviewer_id=${admin.user.id}`)
    assert.equal(assign.statusCode, 200, assign.body)
    const comment = await admin.as('POST', `${PROPOSALS}/${p.id}/comments`, { comment_text: 'Private remark' })
    assert.equal(comment.statusCode, 201, comment.body)
    const decline = await admin.as('POST', `${PROPOSALS}/${p.id}/decline`, { reason: 'Moved away' })
    assert.equal(decline.statusCode, 200, decline.body)
    // A refused action enqueues nothing (same transaction): declining again is a 409.
    assert.equal((await admin.as('POST', `${PROPOSALS}/${p.id}/decline`, { reason: 'x' })).statusCode, 409)
    await worker.runOnce()

    // One worker posts a webhook's deliveries in the order of the events.
    const events = bodies(all.path).map((b) => `${b.event}:${b.proposal.stage}`)
    assert.deepEqual(events, [
      'proposal_created:sp_approval',
      'stage_changed:hc_approval',
      'stage_changed:interview',
      'interview_assigned:interview',
      'comment:interview',
      'declined:declined',
    ])
    assert.ok(!receiver.at(all.path).some((r) => r.body.includes('Private remark')), 'comment text is never sent')
    assert.deepEqual(
      bodies(onlyComments.path).map((b) => b.event),
      ['comment'],
    )
    assert.deepEqual(
      (await deliveries(all.id)).map((d) => d.event),
      ['declined', 'comment', 'interview_assigned', 'stage_changed', 'stage_changed', 'proposal_created'],
      'newest first',
    )
  })

  it('POST /webhooks/{id}/test delivers a signed test message at once and logs it', async () => {
    const h = await hook(['comment'])
    const res = await admin.as('POST', `/api/webhooks/${h.id}/test`)
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().status, 'delivered')
    assert.equal(res.json().event, 'test')
    const [r] = receiver.at(h.path)
    assert.ok(r && verifies(h.secret, r))
    assert.equal(JSON.parse(r.body).event, 'test')
    assert.equal((await deliveries(h.id))[0]?.id, res.json().id)

    receiver.fail(h.path, 1, 410)
    const failed = (await admin.as('POST', `/api/webhooks/${h.id}/test`)).json()
    assert.deepEqual([failed.status, failed.last_status_code], ['pending', 410])
  })

  it('several workers claim each delivery exactly once (count at the receiver)', async () => {
    const h = await hook(['comment'])
    const p = await submit(admin.as, ward)
    for (let i = 0; i < 40; i++) {
      const res = await admin.as('POST', `${PROPOSALS}/${p.id}/comments`, { comment_text: `c${i}` })
      assert.equal(res.statusCode, 201)
    }
    const workers = Array.from(
      { length: 4 },
      () => new WebhookWorker({ db: t.database.db, dialect: t.database.dialect, clock: t.clock, config: t.config }),
    )
    await Promise.all(workers.map((w) => w.runOnce()))
    const ids = receiver.at(h.path).map((r: Received) => r.headers['x-stake-delivery'])
    assert.equal(ids.length, 40)
    assert.equal(new Set(ids).size, 40)
    assert.ok((await deliveries(h.id)).every((d) => d.status === 'delivered' && d.attempts === 1))
  })

  it('keeps delivered and failed deliveries in the log for 30 days, pending ones until they finish', async () => {
    const h = await hook(['proposal_created'])
    receiver.fail(h.path, 1)
    await submit(admin.as, ward) // first try fails: pending
    await admin.as('POST', `/api/webhooks/${h.id}/test`) // delivered
    await worker.runOnce()
    t.clock.advance(31 * 24 * 3600)
    await signInAgain()
    const pending = (await deliveries(h.id)).filter((d) => d.status === 'pending')
    assert.equal(pending.length, 1)
    assert.ok((await worker.purgeLog()) >= 1)
    assert.deepEqual(
      (await deliveries(h.id)).map((d) => d.status),
      ['pending'],
    )
  })

  it('checks the address again at delivery time: a URL that now reaches loopback is refused (DNS rebinding)', async () => {
    // As if "hooks.example" resolved to a public address when saved and to 127.0.0.1 now.
    const byName = await hook(['proposal_created'])
    const byAddress = await hook(['proposal_created'])
    await t.database.db
      .updateTable('webhooks')
      .set({ url: receiver.url(byName.path).replace('127.0.0.1', 'localhost') })
      .where('id', '=', byName.id)
      .execute()
    const strict = new WebhookWorker({
      db: t.database.db,
      dialect: t.database.dialect,
      clock: t.clock,
      config: { ...t.config, webhookAllowPrivate: false },
    })
    await submit(admin.as, ward)
    await strict.runOnce()
    assert.equal(receiver.at(byName.path).length, 0)
    assert.equal(receiver.at(byAddress.path).length, 0)
    for (const h of [byName, byAddress]) {
      const [d] = await deliveries(h.id)
      assert.equal(d?.status, 'pending')
      assert.equal(d?.last_status_code, null)
      assert.equal(d?.last_error, 'could not connect', 'the generic text, not the reason (S11)')
    }
  })
})
