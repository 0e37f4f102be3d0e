import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { SpeakingCalendar } from '@stake/contract'
import { isForeignKeyViolation } from '../../db/database.ts'
import { useTestApp } from '../../test/harness.ts'
import { createUser, seat, signedIn, type TestUser } from '../../test/factories.ts'
import {
  assertNoDoubleBooking,
  cell,
  createWard,
  expectedWard,
  prng,
  setHolder,
  setSeatCount,
} from '../../test/speaking.fixtures.ts'

// 4 seats, 4 wards. In 2026, k = 24312 + (m − 1) and L = 4: January is the
// identity (seat s → ward s), February shifts by one, and so on.
describe('speaking overrides', () => {
  const t = useTestApp()
  let manager: Awaited<ReturnType<typeof signedIn>>
  const councilors: TestUser[] = []
  const wards: number[] = []
  const rot = (slot: number, month: number, year = 2026) => expectedWard(slot, 4, wards, year, month)

  const put = (body: Record<string, unknown>) => manager.as('PUT', '/api/speaking/calendar/override', body)
  const del = (query: string) => manager.as('DELETE', `/api/speaking/calendar/override?${query}`)
  const calendar = async (year = 2026): Promise<SpeakingCalendar> =>
    (await manager.as('GET', `/api/speaking/calendar/${year}`)).json()
  const override = async (slot: number, month: number, ward: number | null, year = 2026): Promise<SpeakingCalendar> => {
    const res = await put({ high_councilor_id: councilors[slot - 1]!.id, month, year, ward_id: ward })
    assert.equal(res.statusCode, 200, res.body)
    return res.json()
  }
  const restore = async (slot: number, month: number, year = 2026) => {
    const res = await del(`high_councilor_id=${councilors[slot - 1]!.id}&month=${month}&year=${year}`)
    assert.equal(res.statusCode, 204, res.body)
    assert.equal(res.body, '')
  }

  it('setup: 4 seated high councilors, 4 wards, a speaking manager', async () => {
    await setSeatCount(t, 4)
    for (let slot = 1; slot <= 4; slot++) {
      const user = await createUser(t)
      await seat(t, 'high_councilor', user.id, slot)
      councilors.push(user)
      wards.push((await createWard(t)).id)
    }
    manager = await signedIn(t, { permissions: ['speaking.manage'] })
    const c = await calendar()
    for (let m = 1; m <= 12; m++) for (let s = 1; s <= 4; s++) assert.equal(cell(c, s, m).ward_id, rot(s, m))
  })

  it('PUT override to a ward no one has (after a clear) sets it and returns the year’s calendar', async () => {
    // Seat 1 stops speaking in March: its ward is free; seat 2 takes it.
    await override(1, 3, null)
    const freed = rot(1, 3)!
    const c = await override(2, 3, freed)
    assert.equal(c.year, 2026)
    assert.equal(c.rows.length, 4)
    assert.deepEqual(cell(c, 2, 3), { month: 3, ward_id: freed, overridden: true, topic: null })
    assert.deepEqual(cell(c, 1, 3), { month: 3, ward_id: null, overridden: true, topic: null })
    assert.equal(cell(c, 3, 3).ward_id, rot(3, 3))
    assert.equal(cell(c, 3, 3).overridden, false)
    assert.equal(cell(c, 2, 4).overridden, false, 'other months untouched')
    assertNoDoubleBooking(c)
  })

  it('PUT override to null clears the seat for the month: "not speaking", its ward has no speaker', async () => {
    const c = await override(4, 5, null)
    assert.deepEqual(cell(c, 4, 5), { month: 5, ward_id: null, overridden: true, topic: null })
    assert.ok(c.rows.every((r) => r.months[4]!.ward_id !== rot(4, 5)))
    assertNoDoubleBooking(c)
  })

  it('taking a ward another seat has that month swaps the two, in one write', async () => {
    const c = await override(1, 6, rot(3, 6))
    assert.deepEqual(cell(c, 1, 6), { month: 6, ward_id: rot(3, 6), overridden: true, topic: null })
    assert.deepEqual(cell(c, 3, 6), { month: 6, ward_id: rot(1, 6), overridden: true, topic: null })
    assert.equal(cell(c, 2, 6).ward_id, rot(2, 6))
    assertNoDoubleBooking(c)
    const rows = await t.database.db
      .selectFrom('speaking_overrides')
      .select(['slot_id', 'ward_id'])
      .where('year', '=', 2026)
      .where('month', '=', 6)
      .orderBy('slot_id')
      .execute()
    assert.deepEqual(rows, [
      { slot_id: 1, ward_id: rot(3, 6) },
      { slot_id: 3, ward_id: rot(1, 6) },
    ])
  })

  it('DELETE override restores the rotation; clearing one half of a swap restores both (204)', async () => {
    await restore(3, 6)
    const c = await calendar()
    for (let s = 1; s <= 4; s++)
      assert.deepEqual(cell(c, s, 6), { month: 6, ward_id: rot(s, 6), overridden: false, topic: null })
    const left = await t.database.db
      .selectFrom('speaking_overrides')
      .select('slot_id')
      .where('year', '=', 2026)
      .where('month', '=', 6)
      .execute()
    assert.deepEqual(left, [])
  })

  it('DELETE override of a seat already in the rotation is a no-op 204', async () => {
    await restore(3, 6)
    await restore(2, 11, 2030)
  })

  it('DELETE restores a cleared seat to its rotation ward', async () => {
    await restore(4, 5)
    assert.deepEqual(cell(await calendar(), 4, 5), { month: 5, ward_id: rot(4, 5), overridden: false, topic: null })
  })

  it('overriding to the seat’s own rotation ward pins it (overridden) without touching anyone else', async () => {
    const c = await override(2, 7, rot(2, 7))
    assert.deepEqual(cell(c, 2, 7), { month: 7, ward_id: rot(2, 7), overridden: true, topic: null })
    assert.ok([1, 3, 4].every((s) => !cell(c, s, 7).overridden))
  })

  it('an override is per year: the same month of another year keeps the rotation', async () => {
    const c = await override(1, 8, rot(2, 8, 2027), 2027)
    assert.equal(cell(c, 1, 8).ward_id, rot(2, 8, 2027))
    assert.equal(cell(await calendar(2026), 1, 8).ward_id, rot(1, 8))
    assert.equal(cell(await calendar(2028), 1, 8).ward_id, rot(1, 8, 2028))
  })

  it('the override belongs to the seat: a change of holder keeps it', async () => {
    await override(2, 9, rot(4, 9))
    const successor = await createUser(t, { fname: 'Nora', lname: 'New' })
    await setHolder(t, 2, null)
    let c = await calendar()
    assert.equal(c.rows[1]!.high_councilor, null)
    assert.deepEqual(cell(c, 2, 9), { month: 9, ward_id: rot(4, 9), overridden: true, topic: null })
    await seat(t, 'high_councilor', successor.id, 2)
    c = await calendar()
    assert.deepEqual(c.rows[1]!.high_councilor, { id: successor.id, fname: 'Nora', lname: 'New' })
    assert.deepEqual(cell(c, 2, 9), { month: 9, ward_id: rot(4, 9), overridden: true, topic: null })
    // The former holder is no longer a high councilor: 422; the successor may be named.
    const former = await put({ high_councilor_id: councilors[1]!.id, month: 9, year: 2026, ward_id: null })
    assert.equal(former.statusCode, 422)
    councilors[1] = successor as TestUser
    await restore(2, 9)
    assert.equal(cell(await calendar(), 2, 9).ward_id, rot(2, 9))
  })

  it('a vacant seat can be the other half of a swap', async () => {
    await setHolder(t, 3, null)
    const c = await override(1, 10, rot(3, 10))
    assert.equal(cell(c, 3, 10).ward_id, rot(1, 10))
    assert.equal(c.rows[2]!.high_councilor_id, null)
    await seat(t, 'high_councilor', councilors[2]!.id, 3)
    await restore(1, 10)
  })

  it('a ward that overrides refer to cannot be deleted (foreign key, no cascade)', async () => {
    await override(1, 11, rot(2, 11))
    await assert.rejects(t.database.db.deleteFrom('wards').where('id', '=', rot(2, 11)!).execute(), (error) =>
      isForeignKeyViolation(error),
    )
    await restore(1, 11)
  })

  it('adding a ward re-flows months without overrides; overridden cells stay and nothing is double-booked', async () => {
    await override(3, 12, rot(1, 12)) // December: 3 and 1 swap
    const before = await calendar()
    const added = await createWard(t)
    const c = await calendar()
    wards.push(added.id)
    assert.deepEqual(
      c.wards.map((w) => w.id),
      wards,
    )
    // Months without overrides follow the new formula (L = 5).
    for (const m of [1, 2, 4])
      for (let s = 1; s <= 4; s++) assert.equal(cell(c, s, m).ward_id, expectedWard(s, 4, wards, 2026, m))
    // Overridden cells are pinned.
    assert.equal(cell(c, 3, 12).ward_id, cell(before, 3, 12).ward_id)
    assert.equal(cell(c, 1, 12).ward_id, cell(before, 1, 12).ward_id)
    assertNoDoubleBooking(c)
    // Back to a 4-ward rotation for the remaining tests.
    await restore(3, 12)
    await t.database.db.deleteFrom('wards').where('id', '=', added.id).execute()
    wards.pop()
  })

  it('removing a seat removes its overrides with it', async () => {
    await setSeatCount(t, 5)
    const fifth = await createUser(t)
    await seat(t, 'high_councilor', fifth.id, 5)
    const res = await put({ high_councilor_id: fifth.id, month: 1, year: 2031, ward_id: wards[0] })
    assert.equal(res.statusCode, 200)
    await setSeatCount(t, 4)
    const rows = await t.database.db
      .selectFrom('speaking_overrides')
      .select('slot_id')
      .where('slot_id', '=', 5)
      .execute()
    assert.deepEqual(rows, [])
    assertNoDoubleBooking(await calendar(2031))
  })

  it('a random series of overrides and restores (seeded) never books a ward or a seat twice in any month', async () => {
    const random = prng(20261122)
    const year = 2029
    for (let step = 0; step < 60; step++) {
      const slot = 1 + Math.floor(random() * 4)
      const month = 1 + Math.floor(random() * 12)
      if (random() < 0.75) {
        const ward = random() < 0.15 ? null : wards[Math.floor(random() * wards.length)]!
        const c = await override(slot, month, ward, year)
        assert.equal(cell(c, slot, month).ward_id, ward)
        assertNoDoubleBooking(c, `step ${step}`)
      } else {
        await restore(slot, month, year)
      }
    }
    const c = await calendar(year)
    assertNoDoubleBooking(c)
    // Every seat with N = W: a month either has all four wards or leaves some seats resting.
    for (let m = 1; m <= 12; m++) {
      const given = c.rows.map((r) => r.months[m - 1]!.ward_id).filter((w) => w !== null)
      assert.ok(given.length <= 4)
    }
  })

  it('concurrent overrides of one month are serialized: all succeed and the month stays consistent', async () => {
    const year = 2032
    const results = await Promise.all(
      [1, 2, 3, 4, 1, 2, 3, 4].map((slot, i) =>
        put({ high_councilor_id: councilors[slot - 1]!.id, month: 2, year, ward_id: wards[(i * 3) % 4] }),
      ),
    )
    assert.deepEqual(
      results.map((r) => r.statusCode),
      Array(8).fill(200),
      results.map((r) => r.body).join('\n'),
    )
    assertNoDoubleBooking(await calendar(year))
  })

  it('concurrent claims of one ward by every seat: each succeeds in turn, exactly one seat ends with it', async () => {
    const year = 2033
    const target = wards[2]!
    const results = await Promise.all(
      [1, 2, 3, 4].map((slot) => put({ high_councilor_id: councilors[slot - 1]!.id, month: 7, year, ward_id: target })),
    )
    assert.ok(results.every((r) => r.statusCode === 200))
    const c = await calendar(year)
    assertNoDoubleBooking(c)
    assert.equal(c.rows.filter((r) => r.months[6]!.ward_id === target).length, 1)
  })
})

describe('speaking overrides: who may, and validation', () => {
  const t = useTestApp()
  let councilor: TestUser
  let ward: number
  let manager: Awaited<ReturnType<typeof signedIn>>
  const valid = () => ({ high_councilor_id: councilor.id, month: 3, year: 2026, ward_id: ward })

  it('setup', async () => {
    councilor = await createUser(t)
    await seat(t, 'high_councilor', councilor.id, 1)
    ward = (await createWard(t)).id
    manager = await signedIn(t, { permissions: ['speaking.manage'] })
  })

  it('PUT and DELETE override return 401 without a token', async () => {
    const put = await t.app.inject({ method: 'PUT', url: '/api/speaking/calendar/override', payload: valid() })
    assert.equal(put.statusCode, 401)
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/speaking/calendar/override?high_councilor_id=${councilor.id}&month=3&year=2026`,
    })
    assert.equal(del.statusCode, 401)
  })

  it('PUT and DELETE override return 403 without speaking.manage — even for the high councilor himself', async () => {
    const plain = await signedIn(t, { permissions: ['proposals.submit', 'proposals.view', 'wards.manage'] })
    const self = await signedIn(t)
    await seat(t, 'high_councilor', self.user.id, 2)
    for (const who of [plain, self]) {
      const put = await who.as('PUT', '/api/speaking/calendar/override', { ...valid(), high_councilor_id: who.user.id })
      assert.equal(put.statusCode, 403)
      assert.equal(put.json().code, 'forbidden')
      const del = await who.as(
        'DELETE',
        `/api/speaking/calendar/override?high_councilor_id=${councilor.id}&month=3&year=2026`,
      )
      assert.equal(del.statusCode, 403)
    }
    assert.deepEqual(await t.database.db.selectFrom('speaking_overrides').selectAll().execute(), [])
  })

  it('a user who must change their password gets 403 password_change_required', async () => {
    const forced = await signedIn(t, { permissions: ['speaking.manage'], forcePasswordReset: true })
    const res = await forced.as('PUT', '/api/speaking/calendar/override', valid())
    assert.equal(res.statusCode, 403)
    assert.equal(res.json().code, 'password_change_required')
  })

  it('returns 422 when high_councilor_id is not the user id of a current high councilor', async () => {
    const stranger = await createUser(t)
    for (const id of [stranger.id, manager.user.id, 999999]) {
      const res = await manager.as('PUT', '/api/speaking/calendar/override', { ...valid(), high_councilor_id: id })
      assert.equal(res.statusCode, 422, String(id))
      assert.deepEqual(
        res.json().detail.map((d: { loc: string[] }) => d.loc),
        [['body', 'high_councilor_id']],
      )
    }
    const del = await manager.as(
      'DELETE',
      `/api/speaking/calendar/override?high_councilor_id=${stranger.id}&month=3&year=2026`,
    )
    assert.equal(del.statusCode, 422)
    assert.deepEqual(del.json().detail[0].loc, ['query', 'high_councilor_id'])
  })

  it('returns 422 when the ward does not exist, and lists both failures together', async () => {
    const res = await manager.as('PUT', '/api/speaking/calendar/override', { ...valid(), ward_id: 999999 })
    assert.equal(res.statusCode, 422)
    assert.deepEqual(
      res.json().detail.map((d: { loc: string[] }) => d.loc),
      [['body', 'ward_id']],
    )
    const both = await manager.as('PUT', '/api/speaking/calendar/override', {
      ...valid(),
      high_councilor_id: 999999,
      ward_id: 999999,
    })
    assert.deepEqual(
      both.json().detail.map((d: { loc: string[] }) => d.loc),
      [
        ['body', 'high_councilor_id'],
        ['body', 'ward_id'],
      ],
    )
  })

  it('returns 422 for month outside 1–12, year outside 2000–2100, bad types and missing fields', async () => {
    const cases: [Record<string, unknown>, string[][]][] = [
      [{ ...valid(), month: 0 }, [['body', 'month']]],
      [{ ...valid(), month: 13 }, [['body', 'month']]],
      [{ ...valid(), year: 1999 }, [['body', 'year']]],
      [{ ...valid(), year: 2101 }, [['body', 'year']]],
      [
        { ...valid(), month: 13, year: 1999 },
        [
          ['body', 'month'],
          ['body', 'year'],
        ],
      ],
      [{ ...valid(), month: 2.5 }, [['body', 'month']]],
      [{ ...valid(), ward_id: 0 }, [['body', 'ward_id']]],
      [{ ...valid(), ward_id: 'north' }, [['body', 'ward_id']]],
      [{ ...valid(), ward_id: false }, [['body', 'ward_id']]],
      [{ ...valid(), ward_id: [ward] }, [['body', 'ward_id']]],
      [{ ...valid(), ward_id: 2 ** 31 }, [['body', 'ward_id']]],
      [{ ...valid(), high_councilor_id: -1 }, [['body', 'high_councilor_id']]],
      [{ month: 3, year: 2026, ward_id: ward }, [['body', 'high_councilor_id']]],
      [{ high_councilor_id: councilor.id, month: 3, year: 2026 }, [['body', 'ward_id']]],
    ]
    for (const [body, locs] of cases) {
      const res = await manager.as('PUT', '/api/speaking/calendar/override', body)
      assert.equal(res.statusCode, 422, JSON.stringify(body))
      assert.deepEqual(
        res
          .json()
          .detail.map((d: { loc: string[] }) => d.loc)
          .sort(),
        locs.sort(),
        `${JSON.stringify(body)} → ${res.body}`,
      )
    }
    for (const [query, field] of [
      [`high_councilor_id=${councilor.id}&month=13&year=2026`, 'month'],
      [`high_councilor_id=${councilor.id}&month=3&year=1999`, 'year'],
      [`month=3&year=2026`, 'high_councilor_id'],
      [`high_councilor_id=abc&month=3&year=2026`, 'high_councilor_id'],
    ]) {
      const res = await manager.as('DELETE', `/api/speaking/calendar/override?${query}`)
      assert.equal(res.statusCode, 422, query)
      assert.deepEqual(res.json().detail[0].loc, ['query', field])
    }
  })

  it('returns 422 for a malformed or non-object body', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/speaking/calendar/override',
      headers: { authorization: `Bearer ${manager.token}`, 'content-type': 'application/json' },
      payload: '{"high_councilor_id":',
    })
    assert.equal(res.statusCode, 422)
    for (const body of [[], 'x', 7]) {
      const r = await manager.as('PUT', '/api/speaking/calendar/override', JSON.stringify(body))
      assert.equal(r.statusCode, 422, JSON.stringify(body))
    }
  })

  it('DELETE /wards/{id} answers 409 in_use while an override refers to the ward, 204 once restored', async () => {
    const admin = await signedIn(t, { permissions: ['speaking.manage', 'wards.manage'] })
    const spare = (await createWard(t)).id
    const set = await admin.as('PUT', '/api/speaking/calendar/override', { ...valid(), month: 9, ward_id: spare })
    assert.equal(set.statusCode, 200)
    const refused = await admin.as('DELETE', `/api/wards/${spare}`)
    assert.equal(refused.statusCode, 409)
    assert.equal(refused.json().code, 'in_use')
    const restored = await admin.as(
      'DELETE',
      `/api/speaking/calendar/override?high_councilor_id=${councilor.id}&month=9&year=2026`,
    )
    assert.equal(restored.statusCode, 204)
    assert.equal((await admin.as('DELETE', `/api/wards/${spare}`)).statusCode, 204)
    const calendar = (await admin.as('GET', '/api/speaking/calendar/2026')).json()
    assert.ok(!calendar.wards.some((w: { id: number }) => w.id === spare))
  })

  it('a valid override by a speaking manager answers 200', async () => {
    const res = await manager.as('PUT', '/api/speaking/calendar/override', valid())
    assert.equal(res.statusCode, 200)
    assert.equal(res.json().rows[0].months[2].ward_id, ward)
  })
})
