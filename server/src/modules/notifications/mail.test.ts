import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, it } from 'node:test'
import type { OutboxEntry } from '@stake/contract'
import { ALL_PERMISSIONS, injectAs, login, signedIn } from '../../test/factories.ts'
import { createTestApp, type TestApp } from '../../test/harness.ts'
import { SmtpReceiver } from '../../test/smtp-receiver.ts'
import { move, submit, tracker, type Tracker } from '../../test/proposals.fixtures.ts'
import { runDaily } from './daily.ts'
import { deliverDue, smtpSender } from './mail.worker.ts'

type User = Awaited<ReturnType<typeof signedIn>>
const PUBLIC = 'https://stake.example.org/app'

describe('mail through a real SMTP server (docs/api-reference.md §11)', () => {
  let t: TestApp & { close(): Promise<void> }
  let receiver: SmtpReceiver
  let sender: ReturnType<typeof smtpSender>
  let { ward, bishop, clerk, sp, hcs } = {} as Tracker
  let admin: User

  before(async () => {
    receiver = await SmtpReceiver.start()
    t = await createTestApp({
      SMTP_URL: receiver.url(),
      MAIL_FROM: 'Stake <stake@example.org>',
      PUBLIC_URL: PUBLIC,
      STAKE_TIMEZONE: 'America/Mexico_City',
    })
    sender = smtpSender(t.config)
    ;({ ward, bishop, clerk, sp, hcs } = await tracker(t, 2))
    admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    await sp.first.as('PUT', '/api/notifications/preferences', { email: 'daily' })
    await sp.second.as('PUT', '/api/notifications/preferences', { email: 'off' })
  })

  after(async () => {
    await sender?.close()
    await t?.close()
    await receiver?.close()
  })

  /** Tests move the clock by hours: sign in again so the tokens are fresh. */
  const refresh = async (...users: User[]) => {
    for (const u of users) u.as = injectAs(t, (await login(t, u.user)).token)
  }

  beforeEach(async () => {
    await refresh(bishop, clerk, admin)
    receiver.mail.length = 0
    receiver.failWith = () => null
  })

  const deliver = () =>
    deliverDue({ db: t.database.db, dialect: t.database.dialect, clock: t.clock, config: t.config, send: sender.send })
  const outbox = async (status: string) => {
    const res = await admin.as('GET', `/api/outbox?status=${status}`)
    assert.equal(res.statusCode, 200, res.body)
    return res.json() as OutboxEntry[]
  }

  it('sends an immediate notification: recipient, sender, subject, text and HTML with the link; nothing secret', async () => {
    const p = await submit(bishop.as, ward, { spouse_name: 'Secret Spouse' })
    assert.deepEqual(await deliver(), { sent: 1, retry: 0, failed: 0 })
    assert.equal(receiver.mail.length, 1) // first: daily, second: off
    const mail = receiver.mail[0]!
    assert.deepEqual(mail.to, [sp.president.user.email])
    assert.equal(mail.from, 'stake@example.org')
    assert.equal(mail.user, 'stake') // credentials from SMTP_URL
    assert.equal(mail.subject, 'A proposal awaits your vote')
    const link = `${PUBLIC}/proposals/${p.id}`
    assert.match(mail.text, new RegExp(`Your vote is needed: ${p.fname} ${p.lname} as Primary teacher`))
    assert.ok(mail.text.includes(link), mail.text)
    assert.ok(mail.html.includes(`<a href="${link}">`), mail.html)
    for (const secret of ['Secret Spouse', 'smtp-secret']) assert.ok(!mail.raw.includes(secret))
    const [sent] = await outbox('sent')
    assert.equal(sent!.to, sp.president.user.email)
    assert.equal(sent!.attempts, 1)
    assert.equal(sent!.status, 'sent')
    assert.ok(!('text_body' in sent!) && !JSON.stringify(sent).includes(p.lname), 'no body in the outbox list')
    assert.deepEqual(await deliver(), { sent: 0, retry: 0, failed: 0 })
  })

  it('writes mail in the recipient language', async () => {
    await t.database.db.updateTable('users').set({ language: 'es' }).where('id', '=', hcs[0]!.user.id).execute()
    const p = await submit(bishop.as, ward)
    await move(clerk.as, p.id, 'advance', 'sp_approval')
    await deliver()
    const spanish = receiver.mail.find((m) => m.to[0] === hcs[0]!.user.email)!
    assert.equal(spanish.subject, 'Una propuesta espera su voto')
    assert.match(spanish.text, /Se necesita su voto: .* \(aprobación del sumo consejo\)/)
    assert.ok(spanish.text.includes('Abrir la propuesta'))
    const english = receiver.mail.find((m) => m.to[0] === hcs[1]!.user.email)!
    assert.equal(english.subject, 'A proposal awaits your vote')
  })

  it('a server answering 4xx/5xx is retried at 30 s, 2 min, 10 min, 1 h and 6 h, then the mail is marked failed', async () => {
    receiver.failWith = () => 451
    const p = await submit(bishop.as, ward)
    const created = t.clock.now().getTime()
    assert.deepEqual(await deliver(), { sent: 0, retry: 1, failed: 0 })
    const [pending] = await outbox('pending')
    assert.equal(pending!.attempts, 1)
    assert.equal(pending!.last_error?.startsWith('451'), true, pending!.last_error ?? '')
    assert.equal(Date.parse(pending!.next_attempt_at!), created + 30_000)
    // Not due yet: nothing is tried.
    t.clock.advance(29)
    assert.deepEqual(await deliver(), { sent: 0, retry: 0, failed: 0 })
    receiver.failWith = () => 554
    const offsets = [30, 120, 600, 3600, 21600]
    for (const [i, offset] of offsets.entries()) {
      t.clock.set(new Date(created + offset * 1000))
      const round = await deliver()
      assert.deepEqual(
        round,
        i < offsets.length - 1 ? { sent: 0, retry: 1, failed: 0 } : { sent: 0, retry: 0, failed: 1 },
      )
    }
    await refresh(admin)
    const [failed] = await outbox('failed')
    assert.equal(failed!.attempts, 6)
    assert.equal(failed!.next_attempt_at, null)
    assert.equal(failed!.last_error?.startsWith('554'), true)
    assert.equal(receiver.mail.length, 0)
    t.clock.advance(7 * 24 * 3600)
    assert.deepEqual(await deliver(), { sent: 0, retry: 0, failed: 0 })
    assert.ok(p.id > 0)
  })

  it('after a long outage the attempts keep the schedule gaps from the late attempt', async () => {
    receiver.failWith = () => 451
    await submit(bishop.as, ward)
    t.clock.advance(24 * 3600) // the worker was down for a day
    assert.deepEqual(await deliver(), { sent: 0, retry: 1, failed: 0 })
    assert.deepEqual(await deliver(), { sent: 0, retry: 0, failed: 0 })
    await refresh(admin)
    const [pending] = await outbox('pending')
    assert.equal(Date.parse(pending!.next_attempt_at!), t.clock.now().getTime() + 30_000)
    // Stop retrying this one for the next tests: deliver it.
    receiver.failWith = () => null
    t.clock.advance(30)
    assert.deepEqual(await deliver(), { sent: 1, retry: 0, failed: 0 })
  })

  it('a temporary failure then success delivers the message exactly once', async () => {
    let failures = 2
    receiver.failWith = () => (failures-- > 0 ? 421 : null)
    await submit(bishop.as, ward)
    const created = t.clock.now().getTime()
    await deliver()
    t.clock.set(new Date(created + 30_000))
    await deliver()
    t.clock.set(new Date(created + 120_000))
    assert.deepEqual(await deliver(), { sent: 1, retry: 0, failed: 0 })
    assert.equal(receiver.mail.length, 1)
    assert.equal(receiver.attempts >= 3, true)
  })

  it('daily users get one digest with every notification and its link; a second run the same day sends nothing', async () => {
    await t.database.db.updateTable('users').set({ language: 'en' }).where('id', '=', hcs[0]!.user.id).execute()
    // Past the earlier tests' pending digests: start from a clean day.
    t.clock.set(new Date('2026-03-20T15:00:00.000Z'))
    const first = await runDaily({ db: t.database.db, dialect: t.database.dialect, clock: t.clock, config: t.config })
    assert.equal(first.ran, true)
    await deliver()
    receiver.mail.length = 0

    await refresh(bishop)
    const a = await submit(bishop.as, ward)
    const b = await submit(bishop.as, ward)
    assert.deepEqual(await deliver(), { sent: 2, retry: 0, failed: 0 }) // the president's two immediate ones
    assert.ok(receiver.mail.every((m) => m.to[0] === sp.president.user.email))
    receiver.mail.length = 0

    t.clock.advance(24 * 3600)
    const day = await runDaily({ db: t.database.db, dialect: t.database.dialect, clock: t.clock, config: t.config })
    assert.equal(day.ran, true)
    assert.equal(day.digests, 1)
    await deliver()
    assert.equal(receiver.mail.length, 1)
    const digest = receiver.mail[0]!
    assert.deepEqual(digest.to, [sp.first.user.email])
    assert.equal(digest.subject, 'Your daily summary: 2 notification(s)')
    for (const p of [a, b]) {
      assert.ok(digest.text.includes(`${p.fname} ${p.lname}`), digest.text)
      assert.ok(digest.text.includes(`${PUBLIC}/proposals/${p.id}`))
      assert.ok(digest.html.includes(`href="${PUBLIC}/proposals/${p.id}"`))
    }
    // The second (mail off) gets nothing, ever.
    assert.ok(!receiver.mail.some((m) => m.to.includes(sp.second.user.email)))

    const again = await runDaily({ db: t.database.db, dialect: t.database.dialect, clock: t.clock, config: t.config })
    assert.equal(again.ran, false)
    const forced = await runDaily(
      { db: t.database.db, dialect: t.database.dialect, clock: t.clock, config: t.config },
      { force: true },
    )
    assert.equal(forced.digests, 0)
    assert.deepEqual(await deliver(), { sent: 0, retry: 0, failed: 0 })
    assert.equal(receiver.mail.length, 1)
  })
})
