import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { SpeakingCalendar } from '@stake/contract'
import { useTestApp } from '../test/harness.ts'
import { ALL_PERMISSIONS, createUser, injectAs, login, signedIn, unique, type TestUser } from '../test/factories.ts'
import { proposalBody } from '../test/proposals.fixtures.ts'
import { assertNoDoubleBooking, cell } from '../test/speaking.fixtures.ts'
import {
  assertAll,
  assertFilledOnce,
  assertNoServerError,
  burst,
  loginRequest,
  postWard,
  rename,
  storedFname,
} from '../test/contention.fixtures.ts'

/**
 * Concurrent bursts across domains: on PostgreSQL (a pool of 8,
 * so transactions really interleave) these used to deadlock and answer 500.
 * Every answer must be a 2xx or the rule's own 4xx, and the data consistent.
 */
describe('contention: concurrent writes across domains never answer 5xx', () => {
  const t = useTestApp()
  let admin: ReturnType<typeof injectAs>
  const users = () => Promise.all(Array.from({ length: 24 }, () => createUser(t)))

  before(async () => {
    admin = (await signedIn(t, { permissions: ALL_PERMISSIONS })).as
  })

  it('wards created (some with a bishop) while the same users are edited', async () => {
    const bishops = await users()
    const others = await users()
    const before = (await admin('GET', '/api/wards/')).json().length
    const answers = await burst([
      ...bishops.map((u, i) => ({
        label: `ward ${i}`,
        send: () => admin('POST', '/api/wards/', { name: unique('Ward '), start_time: 600, bishop_id: u.id }),
      })),
      ...Array.from({ length: 16 }, (_, i) => ({
        label: `ward plain ${i}`,
        send: () => admin('POST', '/api/wards/', { name: unique('Ward '), start_time: 540 }),
      })),
      ...[...bishops, ...others].map((u, i) => ({
        label: `user edit ${i}`,
        send: () => admin('PUT', `/api/users/${u.id}`, rename(u, `Edited${i}`)),
      })),
    ])
    assertNoServerError(answers)
    const created = [...assertAll(answers, 'ward ', 201)].map((a) => a.res.json())
    assertAll(answers, 'user edit', 200)
    assert.equal((await admin('GET', '/api/wards/')).json().length, before + 40)
    for (const [i, u] of bishops.entries()) {
      const ward = created.find((w) => w.name && w.bishop_id === u.id)
      assert.ok(ward, `bishop ${i} seated`)
      assert.equal((await admin('GET', `/api/wards/${ward.id}`)).json().bishop_id, u.id)
    }
    for (const [i, u] of [...bishops, ...others].entries()) assert.equal(await storedFname(t, u.id), `Edited${i}`)
  })

  it('slot fills, user edits, speaking overrides and new proposals at once', async () => {
    const calling = (await admin('POST', '/api/callings/', { name: unique('Calling '), max_slots: 12 })).json()
    const [first, second] = [await users(), await users()]
    const hcCalling = await t.database.db
      .selectFrom('callings')
      .select('id')
      .where('key', '=', 'high_councilor')
      .executeTakeFirstOrThrow()
    const councilors: TestUser[] = []
    for (let slot = 1; slot <= 12; slot++) {
      const u = await createUser(t)
      await admin('DELETE', `/api/callings/${hcCalling.id}/${slot}`)
      assert.equal((await admin('PUT', `/api/callings/${hcCalling.id}/${slot}`, { user_id: u.id })).statusCode, 200)
      councilors.push(u)
    }
    const wards = [] as number[]
    for (let i = 0; i < 12; i++) wards.push(await postWard(admin))
    const year = 2031
    const proposalsBefore = Number(
      (await admin('GET', '/api/calling-kanban/proposals?limit=0')).headers['x-total-count'],
    )

    const answers = await burst([
      // Two candidates race for each of the 12 slots: exactly one wins each.
      ...first.slice(0, 12).flatMap((u, i) => [
        { label: `fill a ${i}`, send: () => admin('PUT', `/api/callings/${calling.id}/${i + 1}`, { user_id: u.id }) },
        {
          label: `fill b ${i}`,
          send: () => admin('PUT', `/api/callings/${calling.id}/${i + 1}`, { user_id: second[i]!.id }),
        },
      ]),
      ...[...first, ...councilors].map((u, i) => ({
        label: `user edit ${i}`,
        send: () => admin('PUT', `/api/users/${u.id}`, rename(u, `Burst${i}`)),
      })),
      ...councilors.map((u, i) => ({
        label: `override ${i}`,
        send: () =>
          admin('PUT', '/api/speaking/calendar/override', {
            high_councilor_id: u.id,
            month: i + 1,
            year,
            ward_id: wards[i],
          }),
      })),
      ...Array.from({ length: 8 }, (_, i) => ({
        label: `ward ${i}`,
        send: () => admin('POST', '/api/wards/', { name: unique('Ward '), start_time: 600 }),
      })),
      ...Array.from({ length: 12 }, (_, i) => ({
        label: `topic ${i}`,
        send: () => admin('PUT', `/api/speaking/topics/${year}/${i + 1}`, { topic: `Topic ${i}` }),
      })),
      ...Array.from({ length: 30 }, (_, i) => ({
        label: `proposal ${i}`,
        send: () => admin('POST', '/api/calling-kanban/proposals', proposalBody(wards[i % wards.length]!)),
      })),
    ])
    assertNoServerError(answers)
    assertAll(answers, 'user edit', 200)
    assertAll(answers, 'override', 200)
    assertAll(answers, 'topic', 200)
    const wardsCreated = assertAll(answers, 'ward', 201).map((a) => a.res.json().id as number)
    const proposals = assertAll(answers, 'proposal', 201).map((a) => a.res.json().id as number)
    for (let i = 0; i < 12; i++) {
      const pair = answers
        .filter((a) => a.label === `fill a ${i}` || a.label === `fill b ${i}`)
        .map((a) => a.res.statusCode)
      assert.deepEqual(pair.sort(), [200, 409], `slot ${i + 1}: one winner`)
    }

    const holders = await assertFilledOnce(t, calling.id, 12)
    for (const [slot, holder] of holders) assert.ok([first[slot - 1]!.id, second[slot - 1]!.id].includes(holder))
    for (const [i, u] of [...first, ...councilors].entries()) assert.equal(await storedFname(t, u.id), `Burst${i}`)
    const calendar: SpeakingCalendar = (await admin('GET', `/api/speaking/calendar/${year}`)).json()
    assertNoDoubleBooking(calendar)
    for (let i = 0; i < 12; i++) {
      const seat = calendar.rows.find((r) => r.high_councilor_id === councilors[i]!.id)!
      assert.deepEqual(cell(calendar, seat.slot_id, i + 1), {
        month: i + 1,
        ward_id: wards[i],
        overridden: true,
        topic: `Topic ${i}`,
      })
    }
    assert.deepEqual(
      calendar.topics.map((m) => m.topic),
      Array.from({ length: 12 }, (_, i) => `Topic ${i}`),
    )
    for (const id of wardsCreated)
      assert.ok(
        calendar.wards.some((w) => w.id === id),
        `ward ${id} on the calendar`,
      )
    const total = Number((await admin('GET', '/api/calling-kanban/proposals?limit=0')).headers['x-total-count'])
    assert.equal(total, proposalsBefore + 30)
    const histories = await t.database.db
      .selectFrom('proposal_history')
      .select('proposal_id')
      .where('proposal_id', 'in', proposals)
      .execute()
    assert.equal(histories.length, 30, 'one history row per new proposal')
  })

  it('concurrent grant changes of one user: no 5xx, and the last one written is whole', async () => {
    const target = await createUser(t)
    const sets = [
      ['wards.manage'],
      ['speaking.manage', 'proposals.view'],
      [],
      ['callings.manage', 'wards.manage', 'proposals.submit'],
    ]
    const answers = await burst(
      Array.from({ length: 16 }, (_, i) => ({
        label: `grant ${i}`,
        send: () => admin('PUT', `/api/users/${target.id}/permissions`, { permissions: sets[i % sets.length] }),
      })),
    )
    assertNoServerError(answers)
    assertAll(answers, 'grant', 200)
    const stored = (await admin('GET', `/api/users/${target.id}/permissions`)).json().permissions as string[]
    assert.ok(
      sets.some((set) => JSON.stringify([...set].sort()) === JSON.stringify([...stored].sort())),
      JSON.stringify(stored),
    )
  })

  it('logins and refreshes while the same users are edited, granted and seated', async () => {
    const people = await Promise.all(Array.from({ length: 12 }, () => createUser(t)))
    const sessions = await Promise.all(people.map((u) => login(t, u)))
    const calling = (
      await admin('POST', '/api/callings/', { name: unique('Calling '), max_slots: 12, permissions: ['wards.manage'] })
    ).json()
    const answers = await burst(
      people.flatMap((u, i) => [
        { label: `login ${i}`, send: () => loginRequest(t, u) },
        {
          label: `refresh ${i}`,
          send: () =>
            t.app.inject({
              method: 'POST',
              url: '/api/auth/refresh',
              cookies: { refresh_token: sessions[i]!.refresh },
            }),
        },
        { label: `edit ${i}`, send: () => admin('PUT', `/api/users/${u.id}`, rename(u, `Auth${i}`)) },
        {
          label: `grant ${i}`,
          send: () => admin('PUT', `/api/users/${u.id}/permissions`, { permissions: ['speaking.manage'] }),
        },
        { label: `seat ${i}`, send: () => admin('PUT', `/api/callings/${calling.id}/${i + 1}`, { user_id: u.id }) },
        { label: `me ${i}`, send: () => injectAs(t, sessions[i]!.token)('GET', '/api/auth/me') },
      ]),
    )
    assertNoServerError(answers)
    for (const prefix of ['login', 'refresh', 'edit', 'grant', 'seat', 'me']) assertAll(answers, prefix, 200)
    await assertFilledOnce(t, calling.id, 12)
    for (const [i, u] of people.entries()) {
      const { token } = await login(t, u)
      const me = (await injectAs(t, token)('GET', '/api/auth/me')).json()
      assert.equal(me.fname, `Auth${i}`)
      assert.ok(
        me.permissions.includes('speaking.manage') && me.permissions.includes('wards.manage'),
        JSON.stringify(me.permissions),
      )
    }
  })
})
