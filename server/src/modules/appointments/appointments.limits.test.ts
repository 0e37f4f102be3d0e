import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { AuditEntry } from '@stake/contract'
import type { LightMyRequestResponse } from 'fastify'
import { createSecondInstance, useTestApp } from '../../test/harness.ts'
import { ALL_PERMISSIONS, injectAs, login, signedIn, type TestUser } from '../../test/factories.ts'
import { createWard, presidency, submit } from '../../test/proposals.fixtures.ts'
import { LIMITS } from '../limits/limits.ts'

const TUESDAY_EVENINGS = [{ weekday: 2, start_minute: 18 * 60, end_minute: 20 * 60 }]
type As = Awaited<ReturnType<typeof signedIn>>['as']

/** S20 (docs/SECURITY.md): appointments are audit entries, and booking links and offers are limited. */
describe('appointments are audited and limited (S20)', () => {
  const t = useTestApp({ STAKE_TIMEZONE: 'America/Denver' }, { shareable: true })
  let second: Awaited<ReturnType<typeof createSecondInstance>>
  let president: { user: TestUser; as: As }
  let counselor: { user: TestUser; as: As }
  let auditor: As
  let auditUser: TestUser
  let address = 0

  before(async () => {
    second = await createSecondInstance(t)
    const seated = await presidency(t)
    president = seated.president
    counselor = seated.first
    const audits = await signedIn(t, { permissions: ['users.manage'] })
    auditor = audits.as
    auditUser = audits.user
    const res = await president.as('PUT', '/api/appointments/availability', {
      weekly: TUESDAY_EVENINGS,
      exceptions: [],
    })
    assert.equal(res.statusCode, 200, res.body)
  })
  after(async () => second?.close())

  const signInAgain = async () => {
    for (const who of [president, counselor]) who.as = injectAs(t, (await login(t, who.user)).token)
    auditor = injectAs(t, (await login(t, auditUser)).token)
  }
  const offer = async (body: Record<string, unknown> = {}) => {
    const res = await president.as('POST', '/api/appointments/offers', {
      kind: 'temple_recommend',
      name: 'Mary Member',
      interviewer_id: president.user.id,
      duration_minutes: 30,
      ...body,
    })
    assert.equal(res.statusCode, 201, res.body)
    return { token: (res.json().url as string).split('#')[1]!, id: res.json().id as number }
  }
  /** A booking action through instance i % 2, from its own client address unless one is given. */
  const act = (
    i: number,
    method: 'POST' | 'PUT' | 'DELETE',
    token: string,
    starts_at?: string,
    remoteAddress = `10.20.${Math.floor(++address / 250)}.${address % 250}`,
  ) =>
    (i % 2 === 0 ? t.app : second.app).inject({
      method,
      url: `/api/appointments/book/${token}`,
      remoteAddress,
      ...(starts_at === undefined ? {} : { payload: { starts_at } }),
    })
  const slots = async (token: string): Promise<string[]> =>
    (await t.app.inject({ method: 'GET', url: `/api/appointments/book/${token}` }))
      .json()
      .slots.map((s: { starts_at: string }) => s.starts_at)
  const entries = async (query: string) => {
    const res = await auditor('GET', `/api/audit?${query}`)
    assert.equal(res.statusCode, 200, res.body)
    return res.json() as AuditEntry[]
  }
  const assertLimited = (res: LightMyRequestResponse) => {
    assert.equal(res.statusCode, 429, res.body)
    assert.equal(res.json().code, 'too_many_attempts')
    assert.ok(Number(res.headers['retry-after']) >= 1)
  }

  it('offers, bookings, moves, cancellations and availability changes are audit entries; the link acts anonymously', async () => {
    const { token, id } = await offer({ name: 'Audrey Audit' })
    const [first, later] = await slots(token)
    assert.equal((await act(0, 'POST', token, first)).statusCode, 201)
    assert.equal((await act(1, 'PUT', token, later)).statusCode, 200)
    assert.equal((await act(0, 'DELETE', token)).statusCode, 204)

    const log = (await entries('action=appointment.')).filter((e) => e.target_id === id).reverse()
    assert.deepEqual(
      log.map((e) => e.action),
      ['appointment.offer', 'appointment.book', 'appointment.move', 'appointment.cancel'],
    )
    assert.ok(log.every((e) => e.target_type === 'appointment'))
    assert.equal(log[0]!.actor_id, president.user.id)
    assert.equal(log[0]!.anonymous_actor, null)
    assert.equal(log[0]!.detail.name, 'Audrey Audit')
    for (const e of log.slice(1)) {
      assert.equal(e.actor_id, null)
      assert.equal(e.anonymous_actor, 'booking_link', 'named as the booking link')
      assert.equal(e.detail.interviewer_id, president.user.id)
    }
    assert.equal(log[1]!.detail.starts_at, first)
    assert.deepEqual([log[2]!.detail.from, log[2]!.detail.starts_at], [first, later])
    assert.equal(log[3]!.detail.starts_at, later)
    assert.ok(
      log.every((e) => !JSON.stringify(e).includes(token)),
      'no entry carries the link',
    )

    const windows = [{ weekday: 4, start_minute: 9 * 60, end_minute: 10 * 60 }, ...TUESDAY_EVENINGS]
    const put = await president.as('PUT', '/api/appointments/availability', { weekly: windows, exceptions: [] })
    assert.equal(put.statusCode, 200, put.body)
    const [change] = await entries('action=availability.update')
    assert.equal(change!.actor_id, president.user.id)
    assert.deepEqual([change!.target_type, change!.target_id], ['user', president.user.id])
    assert.deepEqual(change!.detail.weekly, windows)
    const reset = await president.as('PUT', '/api/appointments/availability', {
      weekly: TUESDAY_EVENINGS,
      exceptions: [],
    })
    assert.equal(reset.statusCode, 200)
  })

  it("a proposal's interview is named by the proposal's id only (S14: the log's readers may not see it)", async () => {
    const manager = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const proposal = await submit(manager.as, await createWard(t.database.db))
    const { id } = await offer({ kind: 'proposal', proposal_id: proposal.id, name: undefined })
    const [entry] = (await entries('action=appointment.offer')).filter((e) => e.target_id === id)
    assert.equal(entry!.detail.proposal_id, proposal.id)
    assert.equal(entry!.detail.name, null)
    assert.ok(!JSON.stringify(entry).includes(proposal.lname))
  })

  it(`a link takes ${LIMITS.bookingLink.limit} actions an hour over both instances, from any addresses, then 429`, async () => {
    const { token } = await offer()
    const [time] = await slots(token)
    const { limit } = LIMITS.bookingLink
    for (let i = 0; i < limit; i++) {
      const res = await act(i, i % 2 === 0 ? 'POST' : 'DELETE', token, i % 2 === 0 ? time : undefined)
      assert.equal(res.statusCode, i % 2 === 0 ? 201 : 204, res.body)
    }
    assertLimited(await act(limit, 'POST', token, time))
    assertLimited(await act(limit + 1, 'POST', token, time))
    const other = await offer()
    assert.equal((await act(0, 'POST', other.token, (await slots(other.token))[1])).statusCode, 201, 'another link')
    t.clock.advance(LIMITS.bookingLink.windowSeconds)
    assert.equal((await act(1, 'DELETE', other.token)).statusCode, 204)
    await signInAgain() // the hour outlived the access tokens
  })

  it(`one address takes ${LIMITS.bookingIp.limit} booking actions an hour over both instances, then 429, even on a new link`, async () => {
    const from = '10.20.99.1'
    const { limit } = LIMITS.bookingIp
    let done = 0
    while (done < limit) {
      const { token } = await offer()
      const [time] = await slots(token)
      for (let i = 0; i < LIMITS.bookingLink.limit && done < limit; i++, done++) {
        const res = await act(done, i % 2 === 0 ? 'POST' : 'DELETE', token, i % 2 === 0 ? time : undefined, from)
        assert.ok(res.statusCode === 201 || res.statusCode === 204, res.body)
      }
    }
    const fresh = await offer()
    assertLimited(await act(limit, 'POST', fresh.token, (await slots(fresh.token))[0], from))
    // A guessed link costs the address the same: refused before it is looked up.
    assertLimited(await act(limit + 1, 'DELETE', 'x'.repeat(43), undefined, from))
    assert.equal((await act(0, 'POST', fresh.token, (await slots(fresh.token))[0])).statusCode, 201, 'another address')
  })

  it(`a user makes ${LIMITS.offers.limit} booking links an hour, then 429`, async () => {
    t.clock.advance(LIMITS.offers.windowSeconds) // the tests above made some
    await signInAgain()
    const body = { kind: 'temple_recommend', name: 'N', interviewer_id: president.user.id, duration_minutes: 30 }
    for (let i = 0; i < LIMITS.offers.limit; i++)
      assert.equal((await counselor.as('POST', '/api/appointments/offers', body)).statusCode, 201)
    assertLimited(await counselor.as('POST', '/api/appointments/offers', body))
    assert.equal((await president.as('POST', '/api/appointments/offers', body)).statusCode, 201, 'another user')
  })
})
