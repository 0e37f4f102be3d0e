import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../../test/harness.ts'
import { injectAs, signedIn, type TestUser } from '../../test/factories.ts'
import { presidency, seated } from '../../test/proposals.fixtures.ts'
import { createWard, setHolder, setSeatCount } from '../../test/speaking.fixtures.ts'
import { fetchFeed, localTime, readFeed } from '../../test/feed.fixtures.ts'
import { doubleAssignments } from './sunday-plan.conflicts.ts'
import { sundaysOf } from './sunday-plan.service.ts'

const ZONE = 'America/Denver'
type As = ReturnType<typeof injectAs>
type Person = { user: TestUser; as: As }

describe('the Sunday plan (docs/api-reference.md §18)', () => {
  const t = useTestApp({ STAKE_TIMEZONE: ZONE })
  let president: Person
  let counselor: Person
  let planner: Person
  let plain: Person
  let hc: Person
  const wards: { id: number; name: string }[] = []

  before(async () => {
    const p = await presidency(t)
    president = p.president
    counselor = p.first
    planner = await signedIn(t, { permissions: ['speaking.manage'] })
    plain = await signedIn(t)
    await setSeatCount(t, 2)
    hc = await seated(t, 'high_councilor')
    await setHolder(t, 1, hc.user.id)
    for (const name of ['Aspen Ward', 'Birch Ward']) wards.push(await createWard(t, name))
  })

  const put = (as: As, body: unknown) => as('PUT', '/api/sunday-plan/assignments', body)

  it('GET /sunday-plan/{year}: every Sunday, the presidency to assign, the speaking rotation beside it', async () => {
    const res = await plain.as('GET', '/api/sunday-plan/2026')
    assert.equal(res.statusCode, 200, res.body)
    const plan = res.json()
    assert.equal(plan.sundays.length, 52)
    assert.deepEqual(
      plan.sundays.map((s: { date: string }) => s.date),
      sundaysOf(2026),
    )
    assert.ok(plan.sundays.every((s: { date: string }) => new Date(`${s.date}T00:00:00Z`).getUTCDay() === 0))
    assert.deepEqual(
      plan.people.map((p: { id: number }) => p.id).sort(),
      [
        president.user.id,
        counselor.user.id,
        (
          await t.database.db
            .selectFrom('calling_slots as cs')
            .innerJoin('callings as c', 'c.id', 'cs.calling_id')
            .select('cs.user_id')
            .where('c.key', '=', 'stake_second_counselor')
            .executeTakeFirstOrThrow()
        ).user_id,
      ].sort(),
    )
    const speaking = plan.sundays.filter((s: { speakers: unknown[] }) => s.speakers.length > 0)
    assert.equal(speaking.length, 12, 'one speaking Sunday a month for the one filled seat')
    assert.ok(speaking.every((s: { speakers: { user: { id: number } }[] }) => s.speakers[0]!.user.id === hc.user.id))
    for (const bad of ['1999', '2101', 'x', '2026.0'])
      assert.equal((await plain.as('GET', `/api/sunday-plan/${bad}`)).statusCode, 422, bad)
    assert.equal((await injectAs(t, null)('GET', '/api/sunday-plan/2026')).statusCode, 401)
  })

  it('PUT /sunday-plan/assignments replaces a Sunday and warns of one person in two places at once', async () => {
    const date = '2026-03-15'
    const res = await put(planner.as, {
      date,
      assignments: [
        { user_id: president.user.id, kind: 'ward_visit', ward_id: wards[0]!.id },
        { user_id: president.user.id, kind: 'stake_conference', session: 'General session', start_minute: 600 },
        { user_id: counselor.user.id, kind: 'ward_visit', ward_id: wards[1]!.id },
      ],
    })
    assert.equal(res.statusCode, 200, res.body)
    const sunday = res.json()
    assert.equal(sunday.assignments.length, 3)
    assert.equal(sunday.assignments[0].start_minute, 600, "a visit starts at the ward's meeting")
    assert.equal(sunday.warnings.length, 1)
    assert.equal(sunday.warnings[0].user.id, president.user.id)
    assert.match(
      sunday.warnings[0].message,
      /two places at once: a visit to Aspen Ward and stake conference \(General session\)/,
    )

    const plan = (await plain.as('GET', '/api/sunday-plan/2026')).json()
    const same = plan.sundays.find((s: { date: string }) => s.date === date)
    assert.equal(same.warnings.length, 1)

    // Later the same Sunday: no warning; the list replaces what was there.
    const fixed = await put(planner.as, {
      date,
      assignments: [
        {
          user_id: president.user.id,
          kind: 'ward_visit',
          ward_id: wards[0]!.id,
          start_minute: 540,
          duration_minutes: 60,
        },
        { user_id: president.user.id, kind: 'ward_visit', ward_id: wards[1]!.id, start_minute: 600 },
      ],
    })
    assert.equal(fixed.statusCode, 200, fixed.body)
    assert.equal(fixed.json().assignments.length, 2)
    assert.deepEqual(fixed.json().warnings, [])
  })

  it("a high councilor's speaking Sunday counts: assigned elsewhere at that hour is a warning", async () => {
    const plan = (await plain.as('GET', '/api/sunday-plan/2026')).json()
    const sunday = plan.sundays.find(
      (s: { speakers: unknown[]; date: string }) => s.speakers.length > 0 && s.date > '2026-04-01',
    )
    const other = wards.find((w) => w.id !== sunday.speakers[0].ward_id)!
    const res = await put(planner.as, {
      date: sunday.date,
      assignments: [{ user_id: hc.user.id, kind: 'ward_visit', ward_id: other.id }],
    })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().warnings.length, 1)
    assert.match(res.json().warnings[0].message, /speaking in/)
  })

  it('refuses what is not a plan: 403 without speaking.manage, 422 for a weekday, a missing ward or person', async () => {
    const ok = { user_id: president.user.id, kind: 'ward_visit', ward_id: wards[0]!.id }
    assert.equal((await put(plain.as, { date: '2026-03-22', assignments: [ok] })).statusCode, 403)
    for (const body of [
      { date: '2026-03-23', assignments: [ok] },
      { date: '2026-02-29', assignments: [ok] },
      { date: '2026-3-22', assignments: [ok] },
      { date: '2026-03-22', assignments: [{ ...ok, ward_id: 999999 }] },
      { date: '2026-03-22', assignments: [{ ...ok, ward_id: null }] },
      { date: '2026-03-22', assignments: [{ ...ok, user_id: 999999 }] },
      { date: '2026-03-22', assignments: [{ ...ok, kind: 'party' }] },
      { date: '2026-03-22', assignments: [{ user_id: president.user.id, kind: 'stake_conference' }] },
      { date: '2026-03-22', assignments: [{ ...ok, user_id: String(president.user.id) }] },
    ]) {
      const res = await put(planner.as, body)
      assert.equal(res.statusCode, 422, `${JSON.stringify(body)} ${res.body}`)
    }
  })

  it("each person's calendar feed carries their own assignments; a planner's (speaking.manage) carries the stake's", async () => {
    await put(planner.as, {
      date: '2026-03-22',
      assignments: [{ user_id: hc.user.id, kind: 'stake_conference', session: 'Saturday evening', start_minute: 1140 }],
    })
    const feed = async (as: As) => readFeed(await fetchFeed(t, (await as('POST', '/api/speaking/feed')).json().url))
    const mine = await feed(hc.as)
    const event = mine.find((e) => e.summary === 'Stake conference: Saturday evening')
    assert.ok(event, JSON.stringify(mine))
    assert.equal(localTime(event.start, ZONE), '2026-03-22 19:00')
    assert.equal(event.end.getTime() - event.start.getTime(), 120 * 60_000)
    assert.ok(
      mine.some((e) => e.summary.startsWith('Ward visit: ')),
      'his ward visit',
    )
    assert.ok(!mine.some((e) => e.summary.includes(' — ')), "only his own: nobody else's assignments")
    const stake = await feed(planner.as)
    assert.ok(stake.some((e) => e.summary.startsWith('Stake conference: Saturday evening — ')))
  })

  it('doubleAssignments: overlapping stretches of one person, not touching ones nor different people', () => {
    const a = { id: 1, fname: 'A', lname: 'B' }
    const b = { id: 2, fname: 'C', lname: 'D' }
    assert.equal(
      doubleAssignments([
        { user: a, what: 'x', start: 600, minutes: 60 },
        { user: a, what: 'y', start: 660, minutes: 60 },
      ]).length,
      0,
    )
    assert.equal(
      doubleAssignments([
        { user: a, what: 'x', start: 600, minutes: 61 },
        { user: a, what: 'y', start: 660, minutes: 60 },
      ]).length,
      1,
    )
    assert.equal(
      doubleAssignments([
        { user: a, what: 'x', start: 600, minutes: 60 },
        { user: b, what: 'y', start: 600, minutes: 60 },
      ]).length,
      0,
    )
  })
})
