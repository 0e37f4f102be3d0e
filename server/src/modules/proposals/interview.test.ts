import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { createUser, signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { bishopOfNewWard, getProposal, move, submit, tracker, type Tracker } from '../../test/proposals.fixtures.ts'

const URL = '/api/calling-kanban/proposals'

describe('interviews', () => {
  const t = useTestApp()
  let { ward, bishop, clerk, hcs } = {} as Tracker
  before(async () => ({ ward, bishop, clerk, hcs } = await tracker(t, 1)))
  /** A high councilor: sees the proposal from hc_approval on (S10: an interviewer must). */
  const interviewer = () => hcs[0]!

  const atInterview = () => submit(bishop.as, ward, { is_release: true })
  const schedule = (id: number, query: string) => clerk.as('POST', `${URL}/${id}/interview?${query}`)

  describe('POST /interview', () => {
    it('schedules the interview (200) and shows it on the proposal', async () => {
      const p = await atInterview()
      const res = await schedule(
        p.id,
        `interviewer_id=${interviewer().user.id}&scheduled_for=2026-03-05T18:30:00%2B01:00`,
      )
      assert.equal(res.statusCode, 200, res.body)
      const interview = res.json()
      assert.equal(interview.proposal_id, p.id)
      assert.equal(interview.interviewer_id, interviewer().user.id)
      assert.equal(interview.scheduled_for, '2026-03-05T17:30:00.000Z')
      assert.equal(interview.interview_date, null)
      assert.deepEqual((await getProposal(bishop.as, p.id)).interview, interview)
      assert.deepEqual((await bishop.as('GET', `${URL}/${p.id}/interview`)).json(), interview)
    })

    it('replaces an existing interview (200, one interview per proposal)', async () => {
      const p = await atInterview()
      const first = (await schedule(p.id, `interviewer_id=${interviewer().user.id}`)).json()
      const res = await schedule(p.id, `interviewer_id=${clerk.user.id}`)
      assert.equal(res.statusCode, 200)
      assert.equal(res.json().id, first.id)
      assert.equal(res.json().interviewer_id, clerk.user.id)
      assert.equal(res.json().scheduled_for, null)
      const rows = await t.database.db
        .selectFrom('proposal_interviews')
        .select('id')
        .where('proposal_id', '=', p.id)
        .execute()
      assert.equal(rows.length, 1)
    })

    it('returns 409 wrong_stage before and after the interview stage', async () => {
      const call = await submit(bishop.as, ward)
      const early = await schedule(call.id, `interviewer_id=${interviewer().user.id}`)
      assert.equal(early.statusCode, 409)
      assert.equal(early.json().code, 'wrong_stage')
      const release = await atInterview()
      await move(clerk.as, release.id, 'advance', 'interview')
      assert.equal((await schedule(release.id, `interviewer_id=${interviewer().user.id}`)).json().code, 'wrong_stage')
    })

    it('returns 422 for an unknown or inactive interviewer, or a malformed date', async () => {
      const p = await atInterview()
      const inactive = await createUser(t, { active: false })
      for (const query of ['interviewer_id=999999', `interviewer_id=${inactive.id}`]) {
        const res = await schedule(p.id, query)
        assert.equal(res.statusCode, 422, query)
        assert.deepEqual(res.json().detail[0].loc, ['query', 'interviewer_id'])
      }
      assert.equal((await schedule(p.id, '')).statusCode, 422)
      assert.equal(
        (await schedule(p.id, `interviewer_id=${interviewer().user.id}&scheduled_for=tomorrow`)).statusCode,
        422,
      )
      // A leap second is valid RFC 3339 but not a time we can store.
      const leap = await schedule(p.id, `interviewer_id=${interviewer().user.id}&scheduled_for=2026-06-30T23:59:60Z`)
      assert.equal(leap.statusCode, 422)
      assert.deepEqual(leap.json().detail[0].loc, ['query', 'scheduled_for'])
    })

    it('returns 422 for an interviewer who cannot see the proposal (S10), and assigns nobody', async () => {
      const p = await atInterview()
      const stranger = await createUser(t) // no seat, no permission: sees no proposal of this ward
      const otherBishop = await bishopOfNewWard(t)
      for (const id of [stranger.id, otherBishop.user.id]) {
        const res = await schedule(p.id, `interviewer_id=${id}`)
        assert.equal(res.statusCode, 422, res.body)
        assert.deepEqual(res.json().detail[0].loc, ['query', 'interviewer_id'])
        assert.equal(res.json().detail[0].msg, 'The interviewer cannot see this proposal')
      }
      assert.equal((await bishop.as('GET', `${URL}/${p.id}/interview`)).statusCode, 404, 'no interview was made')
      // The ward's own bishop sees it, so he may interview.
      assert.equal((await schedule(p.id, `interviewer_id=${bishop.user.id}`)).statusCode, 200)
    })

    it('returns 403 without proposals.manage', async () => {
      const p = await atInterview()
      const res = await bishop.as('POST', `${URL}/${p.id}/interview?interviewer_id=${interviewer().user.id}`)
      assert.equal(res.statusCode, 403)
    })
  })

  describe('GET /interview', () => {
    it('returns 404 when none is scheduled, and to callers who cannot see the proposal', async () => {
      const p = await atInterview()
      assert.equal((await bishop.as('GET', `${URL}/${p.id}/interview`)).statusCode, 404)
      await schedule(p.id, `interviewer_id=${interviewer().user.id}`)
      const outsider = await signedIn(t)
      assert.equal((await outsider.as('GET', `${URL}/${p.id}/interview`)).statusCode, 404)
    })
  })

  describe('POST /interview/complete', () => {
    it('lets the assigned interviewer complete it (200): interview_date set, proposal at sustain', async () => {
      const p = await atInterview()
      await schedule(p.id, `interviewer_id=${interviewer().user.id}`)
      t.clock.advance(120)
      const res = await interviewer().as('POST', `${URL}/${p.id}/interview/complete`)
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().interview_date, t.clock.now().toISOString())
      const after = await getProposal(bishop.as, p.id)
      assert.equal(after.stage, 'sustain')
      assert.equal(after.interview?.interview_date, t.clock.now().toISOString())
      const last = (await bishop.as('GET', `${URL}/${p.id}/history`)).json().at(-1)
      assert.deepEqual([last.from_stage, last.to_stage, last.by], ['interview', 'sustain', interviewer().user.id])
    })

    it('lets a manager complete it with a given completion_date', async () => {
      const p = await atInterview()
      await schedule(p.id, `interviewer_id=${interviewer().user.id}`)
      const res = await clerk.as('POST', `${URL}/${p.id}/interview/complete?completion_date=2026-03-01T20:00:00Z`)
      assert.equal(res.statusCode, 200)
      assert.equal(res.json().interview_date, '2026-03-01T20:00:00.000Z')
    })

    it('returns 403 to a caller who sees the proposal but is neither manager nor interviewer', async () => {
      const p = await atInterview()
      await schedule(p.id, `interviewer_id=${interviewer().user.id}`)
      assert.equal((await bishop.as('POST', `${URL}/${p.id}/interview/complete`)).statusCode, 403)
      const outsider = await signedIn(t)
      assert.equal((await outsider.as('POST', `${URL}/${p.id}/interview/complete`)).statusCode, 404)
    })

    it('returns 409 without an interviewer, and 409 wrong_stage off the interview stage', async () => {
      const p = await atInterview()
      const none = await clerk.as('POST', `${URL}/${p.id}/interview/complete`)
      assert.equal(none.statusCode, 409)
      assert.equal(none.json().code, 'conflict')
      await schedule(p.id, `interviewer_id=${interviewer().user.id}`)
      await clerk.as('POST', `${URL}/${p.id}/interview/complete`)
      const again = await interviewer().as('POST', `${URL}/${p.id}/interview/complete`)
      assert.equal(again.statusCode, 409)
      assert.equal(again.json().code, 'wrong_stage')
    })

    it('returns 422 for a malformed completion_date and 404 for an absent proposal', async () => {
      const p = await atInterview()
      assert.equal((await clerk.as('POST', `${URL}/${p.id}/interview/complete?completion_date=soon`)).statusCode, 422)
      assert.equal(
        (await clerk.as('POST', `${URL}/${p.id}/interview/complete?completion_date=2026-12-31T23:59:60Z`)).statusCode,
        422,
      )
      assert.equal((await clerk.as('POST', `${URL}/999999/interview/complete`)).statusCode, 404)
    })
  })
})
