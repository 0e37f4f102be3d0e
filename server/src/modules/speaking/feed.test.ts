import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../../test/harness.ts'
import { injectAs, signedIn, type TestUser } from '../../test/factories.ts'
import { createWard, expectedWard, setHolder, setSeatCount } from '../../test/speaking.fixtures.ts'
import { fetchFeed, localTime, readFeed, sundays, type FeedEvent } from '../../test/feed.fixtures.ts'

type As = ReturnType<typeof injectAs>
const ZONE = 'America/Denver'
/** The TestClock starts on 2026-03-01: the feed runs from March 2026 to February 2027. */
const MONTHS = Array.from({ length: 12 }, (_, i) => ({
  year: 2026 + Math.floor((2 + i) / 12),
  month: ((2 + i) % 12) + 1,
}))

describe('speaking calendar feed (docs/api-reference.md §13)', () => {
  const t = useTestApp({ STAKE_TIMEZONE: ZONE })
  const wards: { id: number; name: string }[] = []
  let hc1: { user: TestUser; as: As }
  let hc2: { user: TestUser; as: As }
  let manager: { user: TestUser; as: As }
  let other: { user: TestUser; as: As }

  before(async () => {
    await setSeatCount(t, 3)
    for (const name of ['Aspen Ward', 'Birch Ward', 'Cedar Ward']) wards.push(await createWard(t, name))
    hc1 = await signedIn(t, { fname: 'Ann', lname: 'One' })
    hc2 = await signedIn(t, { fname: 'Ben', lname: 'Two' })
    manager = await signedIn(t, { permissions: ['speaking.manage', 'wards.manage'] })
    other = await signedIn(t)
    await setHolder(t, 1, hc1.user.id)
    await setHolder(t, 2, hc2.user.id) // seat 3 stays vacant
  })

  const subscribe = async (as: As): Promise<string> => {
    const res = await as('POST', '/api/speaking/feed')
    assert.equal(res.statusCode, 200, res.body)
    return res.json().url
  }
  const feedOf = async (as: As) => readFeed(await fetchFeed(t, await subscribe(as)))
  const wardIds = () => wards.map((w) => w.id)
  const nameOf = (id: number) => wards.find((w) => w.id === id)!.name
  const inMonth = (events: FeedEvent[], year: number, month: number) =>
    events.filter((e) => localTime(e.start, ZONE).startsWith(`${year}-${String(month).padStart(2, '0')}`))

  it('ward field speaking_sunday: 1–5, default 1, kept by a PUT without it', async () => {
    const made = await manager.as('POST', '/api/wards/', { name: 'Spare Ward', start_time: 600 })
    assert.equal(made.statusCode, 201, made.body)
    const id = made.json().id
    assert.equal(made.json().speaking_sunday, 1)
    for (const bad of [0, 6, 2.5, -1, 'x']) {
      const res = await manager.as('PUT', `/api/wards/${id}`, {
        name: 'Spare Ward',
        start_time: 600,
        speaking_sunday: bad,
      })
      assert.equal(res.statusCode, 422, `${bad}`)
    }
    assert.equal(
      (await manager.as('PUT', `/api/wards/${id}`, { name: 'Spare Ward', start_time: 600, speaking_sunday: 5 })).json()
        .speaking_sunday,
      5,
    )
    const kept = await manager.as('PUT', `/api/wards/${id}`, { name: 'Spare Ward', start_time: 660 })
    assert.equal(kept.statusCode, 200, kept.body)
    assert.equal(kept.json().speaking_sunday, 5)
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/wards/${id}` })).json().speaking_sunday, 5)
    const five = await manager.as('POST', '/api/wards/', { name: 'Spare Ward 2', start_time: 600, speaking_sunday: 4 })
    assert.equal(five.json().speaking_sunday, 4)
    for (const ward of [id, five.json().id])
      assert.equal((await manager.as('DELETE', `/api/wards/${ward}`)).statusCode, 204)
  })

  it('POST and DELETE need sign-in; the .ics does not', async () => {
    const anonymous = injectAs(t, null)
    assert.equal((await anonymous('POST', '/api/speaking/feed')).statusCode, 401)
    assert.equal((await anonymous('DELETE', '/api/speaking/feed')).statusCode, 401)
    const url = await subscribe(hc1.as)
    assert.equal((await fetchFeed(t, url)).statusCode, 200)
  })

  it('the address: the request origin, a token of ≥ 128 random bits, stored only as its SHA-256', async () => {
    const url = await subscribe(hc1.as)
    const match = /^http:\/\/localhost(:80)?\/api\/speaking\/feed\/([A-Za-z0-9_-]+)\.ics$/.exec(url)
    assert.ok(match, url)
    const token = match[2]!
    assert.ok(Buffer.from(token, 'base64url').length >= 16)
    const rows = await t.database.db
      .selectFrom('speaking_feeds')
      .selectAll()
      .where('user_id', '=', hc1.user.id)
      .execute()
    assert.equal(rows.length, 1)
    assert.equal(rows[0]!.token_hash, crypto.createHash('sha256').update(token).digest('hex'))
    assert.ok(!JSON.stringify(rows).includes(token))
  })

  it("a high councilor's feed: his own rotation, one event a month on the first Sunday at 10:00 local", async () => {
    const events = await feedOf(hc1.as)
    assert.equal(events.length, 12)
    for (const { year, month } of MONTHS) {
      const [event] = inMonth(events, year, month)
      assert.ok(event, `${year}-${month}`)
      const ward = expectedWard(1, 3, wardIds(), year, month)!
      assert.equal(event.summary, `Speaking: ${nameOf(ward)}`)
      const day = String(sundays(year, month)[0]).padStart(2, '0')
      assert.equal(localTime(event.start, ZONE), `${year}-${String(month).padStart(2, '0')}-${day} 10:00`)
      assert.equal(event.end.getTime() - event.start.getTime(), 3600_000)
    }
  })

  it('across the daylight-saving change the local start time is kept (MST −7, MDT −6)', async () => {
    const events = await feedOf(hc1.as)
    const starts = events.map((e) => e.start.toISOString())
    assert.ok(starts.includes('2026-03-01T17:00:00.000Z'), 'March 1: MST')
    assert.ok(starts.includes('2026-04-05T16:00:00.000Z'), 'April 5: MDT')
    assert.ok(starts.includes('2026-11-01T17:00:00.000Z'), 'November 1, the day clocks go back: MST')
  })

  it('speaking_sunday and start_time place the event; 5 is the last Sunday when there is no fifth', async () => {
    const res = await manager.as('PUT', `/api/wards/${wards[0]!.id}`, {
      name: wards[0]!.name,
      start_time: 570,
      speaking_sunday: 5,
    })
    assert.equal(res.statusCode, 200, res.body)
    const events = (await feedOf(manager.as)).filter((e) => e.summary.startsWith(`Speaking: ${wards[0]!.name}`))
    // Seat 3 is vacant: the ward has an event only in the months seat 1 or 2 has it.
    const months = MONTHS.filter(({ year, month }) =>
      [1, 2].some((s) => expectedWard(s, 3, wardIds(), year, month) === wards[0]!.id),
    )
    assert.equal(events.length, months.length)
    for (const { year, month } of months) {
      const [event] = inMonth(events, year, month)
      const all = sundays(year, month)
      const day = String(all.length === 5 ? all[4] : all[3]).padStart(2, '0')
      assert.equal(localTime(event!.start, ZONE), `${year}-${String(month).padStart(2, '0')}-${day} 09:30`)
    }
    assert.ok(
      events.some((e) => e.start.toISOString() === '2026-03-29T15:30:00.000Z'),
      'March 2026 has five Sundays',
    )
    assert.ok(
      events.some((e) => e.start.toISOString() === '2026-04-26T15:30:00.000Z'),
      'April 2026 has four',
    )
  })

  it('the whole stake for speaking.manage, speakers named, vacant seats left out; nothing for anyone else', async () => {
    const events = await feedOf(manager.as)
    assert.equal(events.length, 24)
    for (const { year, month } of MONTHS) {
      const summaries = inMonth(events, year, month)
        .map((e) => e.summary)
        .sort()
      const expected = [
        `Speaking: ${nameOf(expectedWard(1, 3, wardIds(), year, month)!)} — Ann One`,
        `Speaking: ${nameOf(expectedWard(2, 3, wardIds(), year, month)!)} — Ben Two`,
      ].sort()
      assert.deepEqual(summaries, expected, `${year}-${month}`)
    }
    assert.deepEqual(await feedOf(other.as), [])
  })

  it('UIDs are stable across fetches and a rotation of the token; the rotated-out token is 404', async () => {
    const first = await subscribe(hc2.as)
    const a = readFeed(await fetchFeed(t, first)).map((e) => e.uid)
    const b = readFeed(await fetchFeed(t, first)).map((e) => e.uid)
    assert.equal(new Set(a).size, 12)
    assert.deepEqual(b, a)
    const second = await subscribe(hc2.as)
    assert.notEqual(second, first)
    assert.equal((await fetchFeed(t, first)).statusCode, 404)
    assert.deepEqual(
      readFeed(await fetchFeed(t, second)).map((e) => e.uid),
      a,
    )
    const rows = await t.database.db
      .selectFrom('speaking_feeds')
      .select('user_id')
      .where('user_id', '=', hc2.user.id)
      .execute()
    assert.equal(rows.length, 1, 'one feed per user')
  })

  it('overrides and the month topic are reflected', async () => {
    const url = await subscribe(hc1.as)
    const target = wardIds().find((w) => w !== expectedWard(1, 3, wardIds(), 2026, 6))!
    const put = await manager.as('PUT', '/api/speaking/calendar/override', {
      high_councilor_id: hc1.user.id,
      year: 2026,
      month: 6,
      ward_id: target,
    })
    assert.equal(put.statusCode, 200, put.body)
    const rest = await manager.as('PUT', '/api/speaking/calendar/override', {
      high_councilor_id: hc1.user.id,
      year: 2027,
      month: 1,
      ward_id: null,
    })
    assert.equal(rest.statusCode, 200, rest.body)
    const topic = 'Faith — ' + 'a long topic that must be folded across lines '.repeat(3).trim()
    assert.equal(
      (await manager.as('PUT', '/api/speaking/topics/2026/6', { topic, reference: 'Alma 32' })).statusCode,
      200,
    )
    const events = readFeed(await fetchFeed(t, url))
    const [june] = inMonth(events, 2026, 6)
    assert.equal(june!.summary, `Speaking: ${nameOf(target)}`)
    assert.equal(june!.description, `${topic}\nAlma 32`)
    assert.deepEqual(inMonth(events, 2027, 1), [], 'not speaking in January 2027')
    assert.equal(events.length, 11)
  })

  it('DELETE revokes (204, then 404); unknown and malformed addresses are 404', async () => {
    const url = await subscribe(hc1.as)
    assert.equal((await hc1.as('DELETE', '/api/speaking/feed')).statusCode, 204)
    assert.equal((await fetchFeed(t, url)).statusCode, 404)
    assert.equal((await hc1.as('DELETE', '/api/speaking/feed')).statusCode, 204, 'idempotent')
    const unknown = crypto.randomBytes(32).toString('base64url')
    for (const name of [`${unknown}.ics`, 'abc.ics', `${unknown}.txt`, `${unknown}`, '..%2F..%2Fhealth.ics']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/speaking/feed/${name}` })
      assert.equal(res.statusCode, 404, name)
    }
  })

  it("a deactivated owner's feed stops answering (404)", async () => {
    const signed = await signedIn(t, { permissions: ['speaking.manage'] })
    const url = await subscribe(signed.as)
    assert.equal((await fetchFeed(t, url)).statusCode, 200)
    await t.database.db.updateTable('users').set({ active: false }).where('id', '=', signed.user.id).execute()
    assert.equal((await fetchFeed(t, url)).statusCode, 404)
  })
})

describe('speaking calendar feed: PUBLIC_URL', () => {
  const t = useTestApp({ PUBLIC_URL: 'https://stake.example.org/admin/' })

  it('the address is built on PUBLIC_URL, not on the request', async () => {
    const { as } = await signedIn(t)
    const res = await as('POST', '/api/speaking/feed')
    assert.equal(res.statusCode, 200, res.body)
    assert.match(res.json().url, /^https:\/\/stake\.example\.org\/admin\/api\/speaking\/feed\/[A-Za-z0-9_-]{43}\.ics$/)
  })
})
