import assert from 'node:assert/strict'
import { before, beforeEach, describe, it } from 'node:test'
import { ALL_PERMISSIONS, injectAs, login, signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { bishopOf, createWard, move, presidency, submit, tracker, type Tracker } from '../../test/proposals.fixtures.ts'
import { localDayAndHour, runDaily } from './daily.ts'
import { kindsAbout } from '../../test/notifications.fixtures.ts'

const URL = '/api/calling-kanban/proposals'
type User = Awaited<ReturnType<typeof signedIn>>

describe('reminders (docs/api-reference.md §11)', () => {
  const t = useTestApp({ HC_APPROVALS_REQUIRED: '3', REMIND_AFTER_HOURS: '48', STAKE_TIMEZONE: 'Europe/Madrid' })
  let { ward, bishop, clerk, sp, hcs } = {} as Tracker
  before(async () => ({ ward, bishop, clerk, sp, hcs } = await tracker(t)))

  /** Tests move the clock by days: sign in again so the tokens are fresh. */
  const fresh = async () => {
    for (const u of [bishop, clerk, sp.president, ...hcs]) u.as = injectAs(t, (await login(t, u.user)).token)
  }
  beforeEach(fresh)

  const remind = (as: User['as'], id: number) => as('POST', `${URL}/${id}/remind`)
  const atHc = async () => {
    const p = await submit(bishop.as, ward)
    await move(clerk.as, p.id, 'advance', 'sp_approval')
    return p
  }
  const daily = () => runDaily({ db: t.database.db, dialect: t.database.dialect, clock: t.clock, config: t.config })

  it('reminds every voter of the stage who has not voted (200 with their ids), each with a reminder', async () => {
    const p = await atHc()
    assert.equal((await hcs[0]!.as('POST', `${URL}/${p.id}/approvals?approved=true`)).statusCode, 201)
    const res = await remind(clerk.as, p.id)
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(
      (res.json().reminded as number[]).sort((a, b) => a - b),
      [hcs[1]!.user.id, hcs[2]!.user.id].sort((a, b) => a - b),
    )
    assert.deepEqual(await kindsAbout(hcs[1]!.as, p.id), ['vote_needed', 'reminder'])
    assert.deepEqual(await kindsAbout(hcs[0]!.as, p.id), ['vote_needed'])
    assert.deepEqual(await kindsAbout(bishop.as, p.id), ['stage_changed'])
  })

  it('at sp_approval reminds the presidency only, never a high councilor (S9)', async () => {
    const p = await submit(bishop.as, ward)
    const res = await remind(clerk.as, p.id)
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().reminded.length, 3)
    for (const hc of hcs) assert.deepEqual(await kindsAbout(hc.as, p.id), [])
    assert.deepEqual(await kindsAbout(sp.president.as, p.id), ['vote_needed', 'reminder'])
  })

  it('429 too_many_attempts with Retry-After within an hour of the last reminder; allowed again after it', async () => {
    const p = await atHc()
    assert.equal((await remind(clerk.as, p.id)).statusCode, 200)
    t.clock.advance(600)
    const again = await remind(sp.president.as, p.id)
    assert.equal(again.statusCode, 429, again.body)
    assert.equal(again.json().code, 'too_many_attempts')
    assert.equal(again.headers['retry-after'], '3000')
    assert.deepEqual(await kindsAbout(hcs[2]!.as, p.id), ['vote_needed', 'reminder'])
    t.clock.advance(3000)
    await fresh()
    assert.equal((await remind(clerk.as, p.id)).statusCode, 200)
    assert.deepEqual(await kindsAbout(hcs[2]!.as, p.id), ['vote_needed', 'reminder', 'reminder'])
  })

  it('409 wrong_stage where nobody votes; 403 without proposals.manage; 404 for an unknown proposal', async () => {
    const p = await submit(bishop.as, ward, { is_release: true })
    const res = await remind(clerk.as, p.id)
    assert.equal(res.statusCode, 409)
    assert.equal(res.json().code, 'wrong_stage')
    assert.equal((await remind(bishop.as, p.id)).statusCode, 403)
    assert.equal((await remind(hcs[0]!.as, p.id)).statusCode, 403)
    assert.equal((await remind(clerk.as, 2147483647)).statusCode, 404)
    assert.equal((await remind(clerk.as, 0)).statusCode, 422)
  })

  it('the daily run reminds voters once per wait longer than REMIND_AFTER_HOURS; not the manual limit', async () => {
    t.clock.set(new Date('2026-04-01T10:00:00.000Z'))
    await daily() // clears what earlier tests left waiting
    await fresh()
    const p = await atHc()
    await hcs[0]!.as('POST', `${URL}/${p.id}/approvals?approved=true`)
    t.clock.advance(24 * 3600) // waited 24 h: not yet
    assert.equal((await daily()).reminders, 0)
    t.clock.advance(24 * 3600 + 60) // 48 h and a minute
    const run = await daily()
    assert.equal(run.ran, true)
    assert.equal(run.reminders, 2)
    await fresh()
    assert.deepEqual(await kindsAbout(hcs[1]!.as, p.id), ['vote_needed', 'reminder'])
    assert.deepEqual(await kindsAbout(hcs[0]!.as, p.id), ['vote_needed'])
    // Automatic reminders do not count toward the manual limit.
    assert.equal((await remind(clerk.as, p.id)).statusCode, 200)
    // The same day again: the run is claimed; forced, nobody is reminded twice.
    assert.equal((await daily()).ran, false)
    const forced = await runDaily(
      { db: t.database.db, dialect: t.database.dialect, clock: t.clock, config: t.config },
      { force: true },
    )
    assert.equal(forced.reminders, 0)
    // The next days neither: one reminder per wait.
    t.clock.advance(24 * 3600)
    assert.equal((await daily()).reminders, 0)
    // A revert and a new wait at the stage: reminded again after it.
    await fresh()
    await move(clerk.as, p.id, 'revert', 'hc_approval')
    await move(clerk.as, p.id, 'advance', 'sp_approval')
    t.clock.advance(49 * 3600)
    assert.equal((await daily()).reminders, 2)
  })

  it('the day is the stake time zone day', () => {
    assert.deepEqual(localDayAndHour(new Date('2026-04-01T22:30:00.000Z'), 'Europe/Madrid'), {
      day: '2026-04-02',
      hour: 0,
    })
    assert.deepEqual(localDayAndHour(new Date('2026-04-01T05:00:00.000Z'), 'America/Mexico_City'), {
      day: '2026-03-31',
      hour: 23,
    })
  })
})

describe('outbox list for users.manage', () => {
  const t = useTestApp({ SMTP_URL: 'smtp://127.0.0.1:9' })
  it('lists pending mail newest first with X-Total-Count; filters by status', async () => {
    const admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const ward = await createWard(t.database.db)
    const bishop = await bishopOf(t, ward)
    await presidency(t)
    await submit(bishop.as, ward)
    const res = await admin.as('GET', '/api/outbox?status=pending&limit=2')
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['x-total-count'], '3')
    const rows = res.json()
    assert.equal(rows.length, 2)
    assert.ok(rows[0].id > rows[1].id)
    assert.equal(rows[0].status, 'pending')
    assert.equal(rows[0].attempts, 0)
    assert.deepEqual((await admin.as('GET', '/api/outbox?status=sent')).json(), [])
    assert.equal((await admin.as('GET', '/api/outbox')).headers['x-total-count'], '3')
  })
})
