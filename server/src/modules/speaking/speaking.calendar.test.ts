import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { SpeakingCalendar } from '@stake/contract'
import { useTestApp } from '../../test/harness.ts'
import { createUser, seat, signedIn } from '../../test/factories.ts'
import { createWard, expectedWard, setHolder, setSeatCount } from '../../test/speaking.fixtures.ts'

describe('speaking calendar: the default rotation', () => {
  const t = useTestApp()
  const wardIds: number[] = []

  async function calendarOf(year: number): Promise<SpeakingCalendar> {
    const { as } = await signedIn(t)
    const res = await as('GET', `/api/speaking/calendar/${year}`)
    assert.equal(res.statusCode, 200, res.body)
    return res.json()
  }

  async function assertRotation(seats: number, years: number[]) {
    for (const year of years) {
      const calendar = await calendarOf(year)
      assert.equal(calendar.year, year)
      assert.deepEqual(
        calendar.wards.map((w) => w.id),
        wardIds,
        'wards in id order',
      )
      assert.deepEqual(
        calendar.rows.map((r) => r.slot_id),
        Array.from({ length: seats }, (_, i) => i + 1),
      )
      for (const row of calendar.rows) {
        assert.deepEqual(
          row.months.map((m) => m.ward_id),
          Array.from({ length: 12 }, (_, i) => expectedWard(row.slot_id, seats, wardIds, year, i + 1)),
          `N=${seats} W=${wardIds.length} ${year} seat ${row.slot_id}`,
        )
        assert.ok(row.months.every((m) => m.overridden === false))
      }
    }
  }

  it('GET /speaking/calendar/{year} returns 401 without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/speaking/calendar/2026' })
    assert.equal(res.statusCode, 401)
  })

  it('with no wards every seat is "not speaking" every month', async () => {
    await setSeatCount(t, 3)
    await assertRotation(3, [2026])
  })

  it('seats equal to wards (3 = 3): the formula over several years, every ward every month', async () => {
    for (let i = 0; i < 3; i++) wardIds.push((await createWard(t)).id)
    await assertRotation(3, [2000, 2025, 2026, 2027, 2100])
    const calendar = await calendarOf(2026)
    for (let m = 1; m <= 12; m++) {
      assert.deepEqual(calendar.rows.map((r) => r.months[m - 1]!.ward_id).sort(), [...wardIds].sort(), `month ${m}`)
    }
  })

  it('fewer seats than wards (3 < 5): each seat speaks every month, two wards go without', async () => {
    for (let i = 0; i < 2; i++) wardIds.push((await createWard(t)).id)
    await assertRotation(3, [2025, 2026, 2027])
    const calendar = await calendarOf(2026)
    for (const row of calendar.rows) assert.ok(row.months.every((m) => m.ward_id !== null))
  })

  it('more seats than wards (8 > 5): three seats rest each month, every ward has a speaker', async () => {
    await setSeatCount(t, 8)
    await assertRotation(8, [2025, 2026, 2027])
    const calendar = await calendarOf(2027)
    for (let m = 1; m <= 12; m++) {
      const wards = calendar.rows.map((r) => r.months[m - 1]!.ward_id)
      assert.equal(wards.filter((w) => w === null).length, 3)
      assert.deepEqual(wards.filter((w) => w !== null).sort(), [...wardIds].sort())
    }
  })

  it('the rotation runs on across years: December to January moves every seat one place on', async () => {
    const dec = await calendarOf(2026)
    const jan = await calendarOf(2027)
    const length = Math.max(8, wardIds.length)
    for (const row of dec.rows) {
      const decIndex = (row.slot_id - 1 + 12 * 2026 + 11) % length
      const janIndex = (decIndex + 1) % length
      assert.equal(jan.rows[row.slot_id - 1]!.months[0]!.ward_id, janIndex < wardIds.length ? wardIds[janIndex] : null)
    }
  })

  it('adding a ward re-flows the rotation (months without overrides)', async () => {
    wardIds.push((await createWard(t)).id)
    await assertRotation(8, [2026])
  })

  it('rows carry the holder (or null); a vacant seat keeps its place in the rotation', async () => {
    const a = await createUser(t, { fname: 'Ann', lname: 'Alder' })
    const b = await createUser(t, { fname: 'Bob', lname: 'Birch' })
    await seat(t, 'high_councilor', a.id, 1)
    await seat(t, 'high_councilor', b.id, 3)
    const calendar = await calendarOf(2026)
    assert.deepEqual(
      calendar.rows.slice(0, 3).map((r) => [r.slot_id, r.high_councilor_id, r.high_councilor]),
      [
        [1, a.id, { id: a.id, fname: 'Ann', lname: 'Alder' }],
        [2, null, null],
        [3, b.id, { id: b.id, fname: 'Bob', lname: 'Birch' }],
      ],
    )
    // Seat 3 speaks where seat 3 of the formula speaks, though seat 2 is empty.
    assert.equal(calendar.rows[2]!.months[4]!.ward_id, expectedWard(3, 8, wardIds, 2026, 5))
    await setHolder(t, 1, null)
    await setHolder(t, 3, null)
  })

  it('GET /speaking/calendar answers the current year (UTC) from the clock', async () => {
    const { as } = await signedIn(t)
    const now = await as('GET', '/api/speaking/calendar')
    assert.equal(now.statusCode, 200)
    assert.equal(now.json().year, 2026)
    assert.deepEqual(now.json(), (await as('GET', '/api/speaking/calendar/2026')).json())
    // Sign in again after moving the clock: the earlier token has expired by then.
    t.clock.set(new Date('2030-12-31T23:50:00.000Z'))
    const late = await signedIn(t)
    assert.equal((await late.as('GET', '/speaking/calendar/')).json().year, 2030)
    t.clock.set(new Date('2031-01-01T00:00:00.000Z'))
    assert.equal((await late.as('GET', '/speaking/calendar')).json().year, 2031)
    t.clock.set(new Date('2026-03-01T12:00:00.000Z'))
  })

  it('the root alias and a trailing slash answer the same calendar', async () => {
    const { as } = await signedIn(t)
    const a = await as('GET', '/api/speaking/calendar/2026')
    const b = await as('GET', '/speaking/calendar/2026/')
    assert.equal(b.statusCode, 200)
    assert.deepEqual(a.json(), b.json())
  })

  it('returns 422 for a year outside 2000–2100 or not a number', async () => {
    const { as } = await signedIn(t)
    for (const year of ['1999', '2101', 'abc', '2026.5']) {
      const res = await as('GET', `/api/speaking/calendar/${year}`)
      assert.equal(res.statusCode, 422, year)
      assert.deepEqual(res.json().detail[0].loc, ['path', 'year'])
    }
  })

  it('every month carries the month’s topic, and the calendar lists the twelve topics', async () => {
    const admin = await signedIn(t, { permissions: ['speaking.manage'] })
    assert.equal(
      (await admin.as('PUT', '/api/speaking/topics/2026/4', { topic: 'Faith', reference: 'Hebrews 11' })).statusCode,
      200,
    )
    const calendar = (await admin.as('GET', '/api/speaking/calendar/2026')).json() as SpeakingCalendar
    assert.equal(calendar.topics.length, 12)
    assert.deepEqual(calendar.topics[3], { month: 4, topic: 'Faith', reference: 'Hebrews 11' })
    assert.deepEqual(calendar.topics[4], { month: 5, topic: null, reference: null })
    for (const row of calendar.rows) {
      assert.equal(row.months[3]!.topic, 'Faith')
      assert.equal(row.months[4]!.topic, null)
    }
    const other = (await admin.as('GET', '/api/speaking/calendar/2027')).json() as SpeakingCalendar
    assert.ok(other.topics.every((m) => m.topic === null))
  })

  it('the calendar routes are in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json()
    for (const [path, methods] of [
      ['/api/speaking/calendar', ['get']],
      ['/api/speaking/calendar/{year}', ['get']],
      ['/api/speaking/calendar/override', ['put', 'delete']],
      ['/api/speaking/topics/{year}', ['get']],
      ['/api/speaking/topics/{year}/{month}', ['put', 'delete']],
    ] as const) {
      for (const method of methods) assert.ok(doc.paths[path]?.[method], `${method} ${path}`)
    }
    assert.equal(doc.paths['/speaking/calendar'], undefined, 'root aliases are hidden')
  })
})
