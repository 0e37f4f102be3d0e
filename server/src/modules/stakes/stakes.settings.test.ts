import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import {
  PERMISSIONS,
  SLUG_PATTERN,
  type AuditEntry,
  type Board,
  type Calling,
  type Stake,
  type StakeBody,
} from '@stake/contract'
import { acrossStakes } from '../../db/stake-scope.ts'
import { ALL_PERMISSIONS, injectAs, login, seat, signedIn, unique } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { bishopOf, createWard, presidency, seated, submit } from '../../test/proposals.fixtures.ts'
import { createUserIn, otherStake } from '../../test/stakes.fixtures.ts'
import { dailyJob } from '../notifications/daily.ts'
import { applyEnvSettings } from './stakes.settings.ts'

const STAKE = '/api/stake'
const PROPOSALS = '/api/calling-kanban/proposals'
type As = ReturnType<typeof injectAs>

const bodyOf = (stake: Stake, changes: Partial<StakeBody> = {}): StakeBody => {
  const { id: _id, settings_saved: _saved, ...body } = stake
  return { ...body, ...changes }
}

/** Changes some settings as `as`, keeping the others; insists on 200. */
async function change(as: As, changes: Partial<StakeBody>): Promise<Stake> {
  const current = (await as('GET', STAKE)).json() as Stake
  const res = await as('PUT', STAKE, bodyOf(current, changes))
  assert.equal(res.statusCode, 200, res.body)
  return res.json()
}

describe('the stake and its settings: GET and PUT /stake (docs/api-reference.md §14)', () => {
  // The environment's values are the first stake's until its settings are saved in the app.
  const t = useTestApp({
    SP_APPROVALS_REQUIRED: '3',
    HC_APPROVALS_REQUIRED: '4',
    HIGH_COUNCIL_SEATS: '6',
    STAKE_TIMEZONE: 'America/Denver',
  })
  let admin: Awaited<ReturnType<typeof signedIn>>
  let ward: number
  let bishop: Awaited<ReturnType<typeof signedIn>>
  let sp: Awaited<ReturnType<typeof presidency>>

  before(async () => {
    admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    ward = await createWard(t.database.db)
    bishop = await bishopOf(t, ward)
    sp = await presidency(t)
  })
  const vote = (as: As, id: number) => as('POST', `${PROPOSALS}/${id}/approvals?approved=true`)
  const stageOf = async (id: number) => (await admin.as('GET', `${PROPOSALS}/${id}`)).json().stage as string

  const highCouncil = async (as: As): Promise<Calling> => {
    const list = (await as('GET', '/api/callings/')).json() as Calling[]
    return list.find((c) => c.key === 'high_councilor')!
  }
  const seatsOf = (c: Calling) => c.slots.map((s) => (s.filled ? `${s.slot_id}*` : String(s.slot_id)))

  it("answers any signed-in user with the caller's stake, as the environment set it; 401 without a token", async () => {
    const plain = await signedIn(t)
    const res = await plain.as('GET', STAKE)
    assert.equal(res.statusCode, 200, res.body)
    const stake = res.json() as Stake
    assert.match(stake.slug, SLUG_PATTERN)
    assert.deepEqual(
      { ...stake, name: 'x', slug: 'x' },
      {
        id: 1,
        name: 'x',
        slug: 'x',
        timezone: 'America/Denver',
        language: 'en',
        sp_approvals_required: 3,
        hc_approvals_required: 4,
        high_council_seats: 6,
        settings_saved: false,
      },
    )
    assert.equal((await t.app.inject({ method: 'GET', url: STAKE })).statusCode, 401)
    assert.equal((await t.app.inject({ method: 'PUT', url: STAKE, payload: bodyOf(stake) })).statusCode, 401)
  })

  it('lets only a holder of all seven permissions change it (403 forbidden to one lacking any)', async () => {
    const stake = (await admin.as('GET', STAKE)).json() as Stake
    for (const missing of PERMISSIONS) {
      const almost = await signedIn(t, { permissions: PERMISSIONS.filter((p) => p !== missing) })
      const res = await almost.as('PUT', STAKE, bodyOf(stake, { name: 'Taken over' }))
      assert.equal(res.statusCode, 403, `${missing}: ${res.body}`)
      assert.equal(res.json().code, 'forbidden')
    }
    // The seven held through a seat count as well as direct grants.
    const res = await sp.president.as('PUT', STAKE, bodyOf(stake))
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(((await admin.as('GET', STAKE)).json() as Stake).name, stake.name)
  })

  it('refuses a name that is no IANA time zone, or a bare offset, with a 422 on body.timezone', async () => {
    const stake = (await admin.as('GET', STAKE)).json() as Stake
    for (const timezone of ['Mars/Olympus_Mons', '+13:00', 'UTC+1', ' ']) {
      const res = await admin.as('PUT', STAKE, bodyOf(stake, { timezone }))
      assert.equal(res.statusCode, 422, `${timezone}: ${res.body}`)
      assert.ok(
        (res.json().detail as { loc: string[] }[]).some((d) => d.loc.join('.') === 'body.timezone'),
        res.body,
      )
    }
    const bad = await admin.as('PUT', STAKE, { ...bodyOf(stake), sp_approvals_required: 4, language: 'fr' })
    assert.equal(bad.statusCode, 422)
    assert.deepEqual((bad.json().detail as { loc: string[] }[]).map((d) => d.loc.join('.')).sort(), [
      'body.language',
      'body.sp_approvals_required',
    ])
    assert.deepEqual((await admin.as('GET', STAKE)).json(), stake, 'nothing saved')
    // A zone spelled loosely is kept in its canonical spelling.
    assert.equal((await change(admin.as, { timezone: 'america/denver' })).timezone, 'America/Denver')
  })

  it('the approvals each voting stage needs follow the stake (one presidency approval moves a proposal on)', async () => {
    const hc = await seated(t, 'high_councilor')

    const before = await submit(bishop.as, ward)
    await vote(sp.president.as, before.id)
    assert.equal(await stageOf(before.id), 'sp_approval', 'three needed (SP_APPROVALS_REQUIRED)')

    await change(admin.as, { sp_approvals_required: 1, hc_approvals_required: 1 })
    const board = (await admin.as('GET', '/api/calling-kanban/board')).json() as Board
    assert.equal(board.voting.sp_approval.required, 1)
    assert.equal(board.voting.hc_approval.required, 1)
    const p = await submit(bishop.as, ward)
    assert.equal((await vote(sp.first.as, p.id)).statusCode, 201)
    assert.equal(await stageOf(p.id), 'hc_approval')
    assert.equal((await vote(hc.as, p.id)).statusCode, 201)
    assert.equal(await stageOf(p.id), 'interview')

    await change(admin.as, { sp_approvals_required: 2 })
    const q = await submit(bishop.as, ward)
    await vote(sp.first.as, q.id)
    assert.equal(await stageOf(q.id), 'sp_approval')
    await vote(sp.second.as, q.id)
    assert.equal(await stageOf(q.id), 'hc_approval')
  })

  it('the High Councilor seats follow high_council_seats; fewer than the highest filled one is 409 seats_filled', async () => {
    assert.equal((await highCouncil(admin.as)).max_slots, 6)
    await change(admin.as, { high_council_seats: 9 })
    let hc = await highCouncil(admin.as)
    assert.equal(hc.max_slots, 9)
    assert.deepEqual(
      hc.slots.map((s) => s.slot_id),
      [1, 2, 3, 4, 5, 6, 7, 8, 9],
    )

    const councilor = await signedIn(t)
    await seat(t, 'high_councilor', councilor.user.id, 8)
    const stake = (await admin.as('GET', STAKE)).json() as Stake
    const refused = await admin.as('PUT', STAKE, bodyOf(stake, { high_council_seats: 7, name: 'Renamed' }))
    assert.equal(refused.statusCode, 409, refused.body)
    assert.equal(refused.json().code, 'seats_filled')
    assert.deepEqual((await admin.as('GET', STAKE)).json(), stake, 'nothing saved, not even the name')
    assert.equal((await highCouncil(admin.as)).max_slots, 9)

    await change(admin.as, { high_council_seats: 8 })
    hc = await highCouncil(admin.as)
    assert.equal(hc.max_slots, 8)
    assert.deepEqual(seatsOf(hc).slice(1), ['2', '3', '4', '5', '6', '7', '8*'])
    // Only empty seats go; the high councilor is still seated.
    await t.database.db
      .updateTable('calling_slots')
      .set({ user_id: null })
      .where('user_id', '=', councilor.user.id)
      .execute()
    await change(admin.as, { high_council_seats: 6 })
    assert.deepEqual(
      (await highCouncil(admin.as)).slots.map((s) => s.slot_id),
      [1, 2, 3, 4, 5, 6],
    )
  })

  it('writes one stake.update audit entry with the changed fields, none for a save that changes nothing', async () => {
    const list = async () => (await admin.as('GET', '/api/audit?action=stake.update')).json() as AuditEntry[]
    const count = (await list()).length
    const stake = (await admin.as('GET', STAKE)).json() as Stake
    const name = unique('Stake ')
    await change(admin.as, { name, language: 'es' })
    const [entry] = await list()
    assert.equal((await list()).length, count + 1)
    assert.equal(entry!.action, 'stake.update')
    assert.equal(entry!.actor_id, admin.user.id)
    assert.equal(entry!.target_type, 'stake')
    assert.equal(entry!.target_id, 1)
    assert.deepEqual(entry!.detail, {
      name,
      changes: { name: { from: stake.name, to: name }, language: { from: stake.language, to: 'es' } },
    })
    await change(admin.as, {})
    assert.equal((await list()).length, count + 1)
    await change(admin.as, { language: 'en' })
  })

  it('saving stops the stake following the environment; start-up copies the environment only into a stake that does', async () => {
    const saved = (await admin.as('GET', STAKE)).json() as Stake
    assert.equal(saved.settings_saved, true, 'an administrator saved them')
    const row = () => t.database.db.selectFrom('stakes').selectAll().where('id', '=', 1).executeTakeFirstOrThrow()
    assert.equal(Boolean((await row()).settings_from_env), false)
    await applyEnvSettings(t.appDb, t.database.dialect, t.config, t.clock.iso())
    assert.deepEqual((await admin.as('GET', STAKE)).json(), saved, 'the saved settings stay')

    await t.database.db.updateTable('stakes').set({ settings_from_env: true }).where('id', '=', 1).execute()
    await applyEnvSettings(t.appDb, t.database.dialect, { ...t.config, highCouncilSeats: 7 }, t.clock.iso())
    const back = (await admin.as('GET', STAKE)).json() as Stake
    assert.deepEqual(
      [back.timezone, back.sp_approvals_required, back.hc_approvals_required, back.high_council_seats],
      ['America/Denver', 3, 4, 7],
    )
    assert.equal(back.name, saved.name, 'the name has no environment variable: kept')
    assert.equal(back.settings_saved, false, 'following the environment again: not saved by anyone')
    assert.equal((await highCouncil(admin.as)).max_slots, 7)
    await change(admin.as, { high_council_seats: 6 })
  })

  it('a stake made by the operator is not "saved" until its administrator saves it (the checklist\'s first step)', async () => {
    const other = await otherStake(t)
    const fresh = (await other.as('GET', STAKE)).json() as Stake
    assert.equal(fresh.settings_saved, false)
    t.clock.advance(1)
    const res = await other.as('PUT', STAKE, bodyOf(fresh, { timezone: 'Europe/Madrid' }))
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().settings_saved, true)
    assert.equal(((await other.as('GET', STAKE)).json() as Stake).settings_saved, true)
  })

  it("one stake's settings do not change another's", async () => {
    const b = await otherStake(t)
    const mine = (await admin.as('GET', STAKE)).json() as Stake
    const theirs = (await b.as('GET', STAKE)).json() as Stake
    assert.notEqual(theirs.id, mine.id)
    // A new stake starts from the environment's values.
    assert.deepEqual(
      [theirs.timezone, theirs.sp_approvals_required, theirs.hc_approvals_required, theirs.high_council_seats],
      ['America/Denver', 3, 4, 6],
    )

    const changed = await change(b.as, {
      timezone: 'Europe/Madrid',
      sp_approvals_required: 1,
      high_council_seats: 2,
    })
    assert.equal(changed.id, b.stakeId)
    assert.deepEqual((await admin.as('GET', STAKE)).json(), mine)
    assert.equal((await highCouncil(admin.as)).max_slots, mine.high_council_seats)
    assert.equal((await highCouncil(b.as)).max_slots, 2)
    // A user of stake B sees B's settings; the other's audit holds nothing of it.
    const bUser = await createUserIn(t, b.stakeId)
    const bSigned = injectAs(t, (await login(t, bUser)).token)
    assert.equal(((await bSigned('GET', STAKE)).json() as Stake).timezone, 'Europe/Madrid')
    const audit = (await admin.as('GET', '/api/audit?action=stake.update')).json() as AuditEntry[]
    assert.ok(audit.every((e) => e.target_id === mine.id))

    // Presidency approvals in A still need A's number.
    const p = await submit(bishop.as, ward)
    await vote(sp.president.as, p.id)
    assert.equal(await stageOf(p.id), 'sp_approval')
  })

  it("a new user speaks the stake's default language until choosing another", async () => {
    const b = await otherStake(t)
    const create = async () => {
      const res = await b.as('POST', '/api/users/', {
        email: `${unique('u')}@example.org`,
        fname: 'Ana',
        lname: 'Ruiz',
      })
      assert.equal(res.statusCode, 201, res.body)
      return res.json().language as string
    }
    assert.equal(await create(), 'en')
    await change(b.as, { language: 'es' })
    assert.equal(await create(), 'es')
    const mine = await admin.as('POST', '/api/users/', {
      email: `${unique('u')}@example.org`,
      fname: 'Al',
      lname: 'Lee',
    })
    assert.equal(mine.json().language, 'en', "another stake's default is not this one's")
  })
})

describe("the daily jobs run per stake at DAILY_HOUR in each stake's own time zone", () => {
  const t = useTestApp({ DAILY_HOUR: '7', STAKE_TIMEZONE: 'UTC' })

  it('at one instant only the stake already past DAILY_HOUR runs; the other runs when its own hour comes', async () => {
    const admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const b = await otherStake(t)
    await change(admin.as, { timezone: 'Pacific/Tongatapu' }) // UTC+13
    await change(b.as, { timezone: 'Pacific/Honolulu' }) // UTC-10
    const runs = () =>
      acrossStakes(() =>
        t.database.db
          .selectFrom('daily_runs')
          .select(['stake_id', 'day'])
          .where('stake_id', 'in', [1, b.stakeId])
          .orderBy('stake_id')
          .orderBy('day')
          .execute(),
      )
    const logged: string[] = []
    const note = (...args: unknown[]) => void logged.push(String(args[1]))
    const log = { info: note, error: note }
    // No backup of the test's database: no stake is the default one for the job.
    const job = dailyJob({
      db: t.appDb,
      dialect: t.database.dialect,
      clock: t.clock,
      config: { ...t.config, defaultStakeId: 0 },
      log,
    })

    // 17:30 UTC: 06:30 on March 2 in Tonga, 07:30 on March 1 in Honolulu.
    t.clock.set(new Date('2026-03-01T17:30:00Z'))
    await job.run()
    assert.deepEqual(await runs(), [{ stake_id: b.stakeId, day: '2026-03-01' }])

    // An hour later Tonga's 07:30 has come; Honolulu's day is done already.
    t.clock.set(new Date('2026-03-01T18:30:00Z'))
    await job.run()
    assert.deepEqual(await runs(), [
      { stake_id: 1, day: '2026-03-02' },
      { stake_id: b.stakeId, day: '2026-03-01' },
    ])
    await job.run()
    assert.equal((await runs()).length, 2)
    assert.equal(logged.filter((m) => m === 'daily jobs done').length, 2)
    assert.ok(!logged.includes('daily backup done') && !logged.includes('daily backup failed'))
  })
})
