import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { HistoryEntry, Proposal } from '@stake/contract'
import { injectAs, seat, signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { getProposal, submit, tracker, type Tracker } from '../../test/proposals.fixtures.ts'

const URL = '/api/calling-kanban/proposals'
type User = Awaited<ReturnType<typeof signedIn>>

describe('the calling journey: interview held, dated steps, releases (docs/api-reference.md §7, §12, §18)', () => {
  // Sunday 2026-03-01 12:00Z; the stake's zone keeps the dates simple.
  const t = useTestApp({ STAKE_TIMEZONE: 'UTC' })
  let { ward, bishop, clerk, sp } = {} as Tracker
  before(async () => ({ ward, bishop, clerk, sp } = await tracker(t, 0)))

  const post = async (as: User['as'], path: string, status = 200) => {
    const res = await as('POST', `${URL}/${path}`)
    assert.equal(res.statusCode, status, res.body)
    return res
  }
  const history = async (id: number): Promise<HistoryEntry[]> => (await clerk.as('GET', `${URL}/${id}/history`)).json()
  /** A release: it starts at `interview`, then sustain → record → done. */
  const release = () => submit(clerk.as, ward, { is_release: true })

  it('advancing past an interview scheduled and not held is 409 interview_not_held, and nothing moves', async () => {
    const p = await release()
    await post(clerk.as, `${p.id}/interview?interviewer_id=${sp.first.user.id}&scheduled_for=2026-03-03T19:00:00Z`)
    const res = await post(clerk.as, `${p.id}/advance?from_stage=interview`, 409)
    assert.equal(res.json().code, 'interview_not_held')
    assert.equal((await getProposal(clerk.as, p.id)).stage, 'interview')
  })

  it('?waive=true moves on and the history says the interview was not needed', async () => {
    const p = await release()
    await post(clerk.as, `${p.id}/interview?interviewer_id=${sp.first.user.id}`)
    const moved: Proposal = (await post(clerk.as, `${p.id}/advance?from_stage=interview&waive=true`)).json()
    assert.equal(moved.stage, 'sustain')
    const last = (await history(p.id)).at(-1)!
    assert.equal(last.from_stage, 'interview')
    assert.equal(last.note, 'Interview not needed')
  })

  it('with no interview scheduled, or one held, advancing works as before', async () => {
    const none = await release()
    assert.equal((await post(clerk.as, `${none.id}/advance?from_stage=interview`)).json().stage, 'sustain')
    const held = await release()
    await post(clerk.as, `${held.id}/interview?interviewer_id=${sp.first.user.id}`)
    await post(clerk.as, `${held.id}/interview/complete`)
    await post(clerk.as, `${held.id}/revert?from_stage=sustain`) // back at interview: held again needed
    assert.equal(
      (await post(clerk.as, `${held.id}/advance?from_stage=interview`, 409)).json().code,
      'interview_not_held',
    )
  })

  it('set apart and record keep the day given (default today); a future or impossible day is 422', async () => {
    const p = await submit(clerk.as, ward)
    await t.database.db.updateTable('proposals').set({ stage: 'set_apart' }).where('id', '=', p.id).execute()
    assert.equal((await post(clerk.as, `${p.id}/set-apart?date=2026-03-10`, 422)).json().detail[0].loc[1], 'date')
    await post(clerk.as, `${p.id}/set-apart?date=2026-02-30`, 422)
    await post(clerk.as, `${p.id}/set-apart?date=2020-01-01`, 422) // before it was proposed
    await post(clerk.as, `${p.id}/set-apart?date=2026-03-01`)
    await post(clerk.as, `${p.id}/record`)
    const rows = await history(p.id)
    assert.deepEqual(
      rows.slice(-2).map((h) => [h.from_stage, h.on_date]),
      [
        ['set_apart', '2026-03-01'],
        ['record', '2026-03-01'],
      ],
    )
    assert.equal(rows[0]!.on_date, null)
  })

  it('"last updated" follows a move and a scheduled interview', async () => {
    const p = await release()
    t.clock.advance(60)
    await post(clerk.as, `${p.id}/interview?interviewer_id=${sp.first.user.id}`)
    const afterInterview = await getProposal(clerk.as, p.id)
    assert.equal(afterInterview.updated_at, t.clock.iso())
    t.clock.advance(60)
    await post(clerk.as, `${p.id}/advance?from_stage=interview&waive=true`)
    assert.equal((await getProposal(clerk.as, p.id)).updated_at, t.clock.iso())
  })

  it('the interviewer cannot have two at once: another interview or a booked appointment at that time is 409', async () => {
    const interviewer = sp.second
    const a = await release()
    const b = await release()
    await post(clerk.as, `${a.id}/interview?interviewer_id=${interviewer.user.id}&scheduled_for=2026-03-04T19:00:00Z`)
    const clash = await post(
      clerk.as,
      `${b.id}/interview?interviewer_id=${interviewer.user.id}&scheduled_for=2026-03-04T19:15:00Z`,
      409,
    )
    assert.equal(clash.json().code, 'interviewer_busy')
    // Half an hour later is free; the same proposal may move its own time.
    await post(clerk.as, `${b.id}/interview?interviewer_id=${interviewer.user.id}&scheduled_for=2026-03-04T19:30:00Z`)
    await post(clerk.as, `${a.id}/interview?interviewer_id=${interviewer.user.id}&scheduled_for=2026-03-04T18:55:00Z`)

    // A booked temple recommend interview (Tuesday 2026-03-03, 18:00 UTC) blocks its half hour.
    const avail = await interviewer.as('PUT', '/api/appointments/availability', {
      weekly: [{ weekday: 2, start_minute: 18 * 60, end_minute: 20 * 60 }],
      exceptions: [],
    })
    assert.equal(avail.statusCode, 200, avail.body)
    const offer = await interviewer.as('POST', '/api/appointments/offers', {
      kind: 'temple_recommend',
      name: 'Mary Member',
      interviewer_id: interviewer.user.id,
      duration_minutes: 30,
    })
    assert.equal(offer.statusCode, 201, offer.body)
    const token = (offer.json().url as string).split('#')[1]!
    const booked = await injectAs(t, null)('POST', `/api/appointments/book/${token}`, {
      starts_at: '2026-03-03T18:00:00.000Z',
    })
    assert.equal(booked.statusCode, 201, booked.body)
    const c = await release()
    const busy = `${c.id}/interview?interviewer_id=${interviewer.user.id}&scheduled_for=2026-03-03T18:15:00Z`
    assert.equal((await post(clerk.as, busy, 409)).json().code, 'interviewer_busy')
    await post(clerk.as, `${c.id}/interview?interviewer_id=${interviewer.user.id}&scheduled_for=2026-03-03T18:30:00Z`)
  })

  it('a release linked to the roster says since when the person holds the seat; the client cannot say it', async () => {
    const holder = await signedIn(t)
    const seatedAt = t.clock.iso()
    await seat(t, 'stake_executive_secretary', holder.user.id)
    t.clock.advance(60)
    const calling = await t.database.db
      .selectFrom('callings')
      .select('id')
      .where('key', '=', 'stake_executive_secretary')
      .executeTakeFirstOrThrow()
    const p = await submit(bishop.as, ward, {
      releases: [
        {
          fname: holder.user.fname,
          lname: holder.user.lname,
          calling: 'Executive secretary',
          calling_id: calling.id,
          user_id: holder.user.id,
          since: '1999-01-01T00:00:00.000Z',
        },
        { fname: 'Not', lname: 'Listed', calling: 'Usher', since: '1999-01-01T00:00:00.000Z' },
      ],
    })
    assert.equal(p.releases[0]!.since, seatedAt)
    assert.equal(p.releases[1]!.since, undefined)
    // S9 holds: the presidency sees the release at sp_approval; the bishop sees his own.
    assert.equal((await getProposal(sp.president.as, p.id)).releases.length, 2)
    assert.equal((await getProposal(bishop.as, p.id)).releases[0]!.calling, 'Executive secretary')
  })
})
