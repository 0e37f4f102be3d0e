import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../../test/harness.ts'
import { ALL_PERMISSIONS, injectAs, login, signedIn, type TestUser } from '../../test/factories.ts'
import { createWard, presidency, submit } from '../../test/proposals.fixtures.ts'
import { fetchFeed, localTime, readFeed } from '../../test/feed.fixtures.ts'
import { runDaily } from '../notifications/daily.ts'

const ZONE = 'America/Denver'
const TUESDAY_EVENINGS = [{ weekday: 2, start_minute: 18 * 60, end_minute: 20 * 60 }]
type As = ReturnType<typeof injectAs>

describe('appointments with booking links (docs/api-reference.md §18)', () => {
  // The TestClock starts on Sunday 2026-03-01 12:00Z; Denver moves its clocks on 2026-03-08.
  const t = useTestApp({ STAKE_TIMEZONE: ZONE, SMTP_URL: 'smtp://127.0.0.1:9' })
  let president: { user: TestUser; as: As }
  let counselor: { user: TestUser; as: As }
  let plain: { user: TestUser; as: As }
  let manager: { user: TestUser; as: As }
  const anonymous = () => injectAs(t, null)

  before(async () => {
    const p = await presidency(t)
    president = p.president
    counselor = p.first
    plain = await signedIn(t)
    manager = await signedIn(t, {
      permissions: ['proposals.manage', 'proposals.view', 'proposals.submit', 'speaking.manage'],
    })
    const res = await president.as('PUT', '/api/appointments/availability', {
      weekly: TUESDAY_EVENINGS,
      exceptions: [
        { date: '2026-03-17', start_minute: 18 * 60, end_minute: 19 * 60, open: false },
        { date: '2026-03-19', start_minute: 10 * 60, end_minute: 11 * 60, open: true },
      ],
    })
    assert.equal(res.statusCode, 200, res.body)
  })

  const offer = async (body: Record<string, unknown> = {}) => {
    const res = await president.as('POST', '/api/appointments/offers', {
      kind: 'temple_recommend',
      name: 'Mary Member',
      email: 'mary@example.org',
      interviewer_id: president.user.id,
      duration_minutes: 30,
      ...body,
    })
    assert.equal(res.statusCode, 201, res.body)
    const url: string = res.json().url
    const token = url.split('#')[1]!
    return { url, token, id: res.json().id as number }
  }
  const page = (token: string) => anonymous()('GET', `/api/appointments/book/${token}`)

  it('availability: the presidency publishes its own; others are refused (403); bad windows are 422', async () => {
    const mine = await president.as('GET', '/api/appointments/availability')
    assert.equal(mine.statusCode, 200)
    assert.equal(mine.json().timezone, ZONE)
    assert.deepEqual(mine.json().weekly, TUESDAY_EVENINGS)
    assert.equal(mine.json().exceptions.length, 2)
    assert.equal(
      (await plain.as('PUT', '/api/appointments/availability', { weekly: [], exceptions: [] })).statusCode,
      403,
    )
    for (const weekly of [
      [{ weekday: 7, start_minute: 0, end_minute: 60 }],
      [{ weekday: 1, start_minute: 10, end_minute: 60 }],
      [{ weekday: 1, start_minute: 120, end_minute: 60 }],
      [{ weekday: '1', start_minute: 0, end_minute: 60 }],
    ]) {
      const res = await counselor.as('PUT', '/api/appointments/availability', { weekly, exceptions: [] })
      assert.equal(res.statusCode, 422, JSON.stringify(weekly))
    }
    const badDate = await counselor.as('PUT', '/api/appointments/availability', {
      weekly: [],
      exceptions: [{ date: '2026-02-30', start_minute: 0, end_minute: 60, open: true }],
    })
    assert.equal(badDate.statusCode, 422)
    // Another's availability: proposals.manage sets it; a plain user cannot even read it.
    assert.equal((await plain.as('GET', `/api/appointments/availability?user_id=${president.user.id}`)).statusCode, 404)
    assert.equal(
      (await manager.as('GET', `/api/appointments/availability?user_id=${president.user.id}`)).statusCode,
      200,
    )
  })

  it('POST /appointments/offers → 201 {url}: a 256-bit token after #, kept only hashed; 403/422 otherwise', async () => {
    const { url, token, id } = await offer()
    assert.match(url, /\/booking#[A-Za-z0-9_-]{43}$/)
    const row = await t.database.db
      .selectFrom('appointment_offers')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    assert.notEqual(row.token_hash, token)
    assert.ok(!JSON.stringify(row).includes(token))
    assert.equal(row.expires_at, new Date(t.clock.now().getTime() + 14 * 86400_000).toISOString())
    const body = { kind: 'other', name: 'X', duration_minutes: 30, interviewer_id: president.user.id }
    assert.equal((await plain.as('POST', '/api/appointments/offers', body)).statusCode, 403)
    assert.equal((await anonymous()('POST', '/api/appointments/offers', body)).statusCode, 401)
    for (const bad of [
      { ...body, duration_minutes: 20 },
      { ...body, kind: 'proposal' },
      { ...body, interviewer_id: counselor.user.id }, // no availability
      { ...body, interviewer_id: 999999 },
      { ...body, name: null },
      { ...body, email: 'not-an-email' },
    ]) {
      const res = await president.as('POST', '/api/appointments/offers', bad)
      assert.equal(res.statusCode, 422, JSON.stringify(bad) + res.body)
    }
  })

  it('the booking page needs no sign-in and shows only free times, at 18:00 local on both sides of the DST change', async () => {
    const { token } = await offer()
    const res = await page(token)
    assert.equal(res.statusCode, 200, res.body)
    const body = res.json()
    assert.equal(body.name, 'Mary Member')
    assert.equal(body.booking, null)
    const locals = body.slots.map((s: { starts_at: string }) => localTime(new Date(s.starts_at), ZONE))
    // Tuesdays 3, 10, 17 (18:00 closed), 24 March, plus the opened Thursday morning of 19 March.
    assert.deepEqual(locals, [
      '2026-03-03 18:00',
      '2026-03-03 18:30',
      '2026-03-03 19:00',
      '2026-03-03 19:30',
      '2026-03-10 18:00',
      '2026-03-10 18:30',
      '2026-03-10 19:00',
      '2026-03-10 19:30',
      '2026-03-17 19:00',
      '2026-03-17 19:30',
      '2026-03-19 10:00',
      '2026-03-19 10:30',
      '2026-03-24 18:00',
      '2026-03-24 18:30',
      '2026-03-24 19:00',
      '2026-03-24 19:30',
    ])
    assert.equal(body.slots[0].starts_at, '2026-03-04T01:00:00.000Z') // MST
    assert.equal(body.slots[4].starts_at, '2026-03-11T00:00:00.000Z') // MDT
    for (const bad of ['short', `${'A'.repeat(43)}`, `${token}x`]) assert.equal((await page(bad)).statusCode, 404, bad)
  })

  it('book, move and cancel through the link; the interviewer is told; the person is mailed', async () => {
    const { token } = await offer({ name: 'Bob Booker', email: 'bob@example.org' })
    const slots = (await page(token)).json().slots
    const booked = await anonymous()('POST', `/api/appointments/book/${token}`, { starts_at: slots[1].starts_at })
    assert.equal(booked.statusCode, 201, booked.body)
    assert.equal(booked.json().booking.starts_at, slots[1].starts_at)
    assert.ok(booked.json().interviewer)
    const again = await anonymous()('POST', `/api/appointments/book/${token}`, { starts_at: slots[2].starts_at })
    assert.equal(again.statusCode, 409)
    assert.equal(again.json().code, 'already_booked')

    // Another link no longer offers that time.
    const other = await offer({ name: 'Other', email: null })
    const otherSlots = (await page(other.token)).json().slots.map((s: { starts_at: string }) => s.starts_at)
    assert.ok(!otherSlots.includes(slots[1].starts_at))
    const late = await anonymous()('POST', `/api/appointments/book/${other.token}`, { starts_at: slots[1].starts_at })
    assert.equal(late.statusCode, 409)
    assert.equal(late.json().code, 'slot_taken')
    assert.match(late.json().detail, /That time was just taken/)
    const notOffered = await anonymous()('POST', `/api/appointments/book/${other.token}`, {
      starts_at: '2026-03-05T17:00:00Z',
    })
    assert.equal(notOffered.statusCode, 422)

    const moved = await anonymous()('PUT', `/api/appointments/book/${token}`, { starts_at: slots[5].starts_at })
    assert.equal(moved.statusCode, 200, moved.body)
    assert.equal(moved.json().booking.starts_at, slots[5].starts_at)
    // The old time is free again for the other link.
    assert.ok(
      (await page(other.token)).json().slots.some((s: { starts_at: string }) => s.starts_at === slots[1].starts_at),
    )

    const inbox = (await president.as('GET', '/api/notifications')).json() as { text: string }[]
    assert.ok(inbox.some((n) => n.text.startsWith('Interview booked: Bob Booker')))
    assert.ok(inbox.some((n) => n.text.startsWith('Interview moved: Bob Booker')))

    assert.equal((await anonymous()('DELETE', `/api/appointments/book/${token}`)).statusCode, 204)
    assert.equal((await page(token)).json().booking, null)
    assert.equal((await anonymous()('DELETE', `/api/appointments/book/${token}`)).statusCode, 404)
    const mail = await t.database.db
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body'])
      .where('to_address', '=', 'bob@example.org')
      .orderBy('id')
      .execute()
    assert.deepEqual(
      mail.map((m) => m.subject),
      ['Your interview is booked', 'Your interview has a new time', 'Your interview is cancelled'],
    )
    assert.ok(
      mail.every((m) => !m.text_body.includes(token)),
      'the mail never carries the link',
    )
  })

  it('the person’s mail is in the stake’s language (the person has no account, so no language of his own)', async () => {
    const admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const stake = (await admin.as('GET', '/api/stake')).json()
    const speak = async (language: string) => {
      const { id: _id, ...body } = stake
      const res = await admin.as('PUT', '/api/stake', { ...body, language })
      assert.equal(res.statusCode, 200, res.body)
    }
    await speak('es')
    try {
      const { token } = await offer({ name: 'Elena Espino', email: 'elena@example.org' })
      const [slot] = (await page(token)).json().slots
      assert.equal(
        (await anonymous()('POST', `/api/appointments/book/${token}`, { starts_at: slot.starts_at })).statusCode,
        201,
      )
      const [mail] = await t.database.db
        .selectFrom('mail_outbox')
        .select(['subject', 'text_body'])
        .where('to_address', '=', 'elena@example.org')
        .execute()
      assert.equal(mail?.subject, 'Su entrevista está reservada')
      assert.match(
        mail!.text_body,
        /^Hola Elena Espino:\n\nSu entrevista con .+ es el .+\.\n\nPara cambiarla o cancelarla/,
      )
    } finally {
      await speak(stake.language)
    }
  })

  it('two simultaneous bookings of one time: one 201, one 409 "that time was just taken"', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await offer({ name: `A${round}`, email: null })
      const b = await offer({ name: `B${round}`, email: null })
      const at = (await page(a.token)).json().slots[round + 8].starts_at
      const results = await Promise.all(
        [a, b].map((o) => anonymous()('POST', `/api/appointments/book/${o.token}`, { starts_at: at })),
      )
      const codes = results.map((r) => r.statusCode).sort()
      assert.deepEqual(codes, [201, 409], results.map((r) => r.body).join(' | '))
      const loser = results.find((r) => r.statusCode === 409)!
      assert.equal(loser.json().code, 'slot_taken')
      assert.match(loser.json().detail, /That time was just taken/)
      const held = await t.database.db
        .selectFrom('appointments')
        .select('id')
        .where('starts_at', '=', at)
        .where('interviewer_id', '=', president.user.id)
        .execute()
      assert.equal(held.length, 1)
    }
  })

  it('"any of the presidency": booked with a member free at that time; overlapping lengths never double-book', async () => {
    const set = await counselor.as('PUT', '/api/appointments/availability', {
      weekly: TUESDAY_EVENINGS,
      exceptions: [],
    })
    assert.equal(set.statusCode, 200, set.body)
    const any = await offer({ interviewer_id: null, name: 'Any One', duration_minutes: 60 })
    const body = (await page(any.token)).json()
    assert.equal(body.interviewer, null)
    const at = body.slots.find(
      (s: { starts_at: string }) => localTime(new Date(s.starts_at), ZONE) === '2026-03-10 19:00',
    )
    const booked = await anonymous()('POST', `/api/appointments/book/${any.token}`, { starts_at: at.starts_at })
    assert.equal(booked.statusCode, 201, booked.body + JSON.stringify(body.slots))
    assert.ok(booked.json().interviewer)
    // A second hour-long booking at the same time goes to the other member; a third finds nobody.
    const second = await offer({ interviewer_id: null, name: 'Two', duration_minutes: 60 })
    const two = await anonymous()('POST', `/api/appointments/book/${second.token}`, { starts_at: at.starts_at })
    assert.equal(two.statusCode, 201, two.body)
    const third = await offer({ interviewer_id: null, name: 'Three', duration_minutes: 30 })
    const half = new Date(new Date(at.starts_at).getTime() + 30 * 60_000).toISOString()
    const res = await anonymous()('POST', `/api/appointments/book/${third.token}`, { starts_at: half })
    assert.equal(res.statusCode, 409, res.body)
  })

  it("a proposal's interview takes the booked time and interviewer", async () => {
    const ward = await createWard(t.database.db)
    const proposal = await submit(manager.as, ward)
    await t.database.db.updateTable('proposals').set({ stage: 'interview' }).where('id', '=', proposal.id).execute()
    const o = await offer({ kind: 'proposal', proposal_id: proposal.id, name: null, email: null })
    const p = (await page(o.token)).json()
    assert.equal(p.name, `${proposal.fname} ${proposal.lname}`)
    const at = p.slots.at(-1).starts_at
    assert.equal((await anonymous()('POST', `/api/appointments/book/${o.token}`, { starts_at: at })).statusCode, 201)
    const interview = await manager.as('GET', `/api/calling-kanban/proposals/${proposal.id}/interview`)
    assert.equal(interview.json().scheduled_for, at)
    assert.equal(interview.json().interviewer_id, president.user.id)
    // A proposal the caller cannot see is refused like a missing one.
    assert.equal(
      (
        await president.as('POST', '/api/appointments/offers', {
          kind: 'proposal',
          proposal_id: 999999,
          duration_minutes: 30,
        })
      ).statusCode,
      422,
    )
  })

  it("the interviewer's calendar feed carries the appointment with the name; another's feed does not", async () => {
    const { token } = await offer({ name: 'Fiona Feed', email: null })
    const at = (await page(token)).json().slots[0].starts_at
    assert.equal((await anonymous()('POST', `/api/appointments/book/${token}`, { starts_at: at })).statusCode, 201)
    const url = (await president.as('POST', '/api/speaking/feed')).json().url
    const events = readFeed(await fetchFeed(t, url))
    const event = events.find((e) => e.summary === 'Temple recommend interview: Fiona Feed')
    assert.ok(event, JSON.stringify(events))
    assert.equal(event.start.toISOString(), at)
    assert.equal(event.end.getTime() - event.start.getTime(), 30 * 60_000)
    const otherUrl = (await manager.as('POST', '/api/speaking/feed')).json().url
    const other = readFeed(await fetchFeed(t, otherUrl))
    assert.ok(!other.some((e) => e.summary.includes('Fiona')))
  })

  it('the day before, the daily job queues one reminder mail', async () => {
    const { token } = await offer({ name: 'Rita Remind', email: 'rita@example.org' })
    const at = (await page(token))
      .json()
      .slots.find((s: { starts_at: string }) => localTime(new Date(s.starts_at), ZONE).startsWith('2026-03-03'))
    assert.ok(at)
    assert.equal(
      (await anonymous()('POST', `/api/appointments/book/${token}`, { starts_at: at.starts_at })).statusCode,
      201,
    )
    const daily = () =>
      runDaily({ db: t.database.db, dialect: t.database.dialect, clock: t.clock, config: t.config }, { force: true })
    const reminders = () =>
      t.database.db
        .selectFrom('mail_outbox')
        .select('subject')
        .where('to_address', '=', 'rita@example.org')
        .where('subject', 'like', 'Reminder%')
        .execute()
    await daily() // Sunday: the interview is on Tuesday, not tomorrow
    assert.equal((await reminders()).length, 0)
    t.clock.advance(24 * 3600) // Monday
    await daily()
    await daily()
    assert.equal((await reminders()).length, 1)
  })

  it('a link expires after 14 days (404) unless its booked time is still ahead', async () => {
    president.as = injectAs(t, (await login(t, president.user)).token)
    const unbooked = await offer({ email: null })
    const booked = await offer({ email: null, name: 'Late' })
    const slots = (await page(booked.token)).json().slots
    const last = slots.at(-1).starts_at
    assert.equal(
      (await anonymous()('POST', `/api/appointments/book/${booked.token}`, { starts_at: last })).statusCode,
      201,
    )
    t.clock.advance(15 * 86400)
    assert.equal((await page(unbooked.token)).statusCode, 404)
    const still = await page(booked.token)
    assert.equal(still.statusCode, 200, still.body)
    assert.equal(still.json().booking.starts_at, last)
  })
})
