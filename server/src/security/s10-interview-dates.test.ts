import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../test/harness.ts'
import { signedIn } from '../test/factories.ts'
import { expectError, locs } from '../test/callings.fixtures.ts'
import { seated, submit, tracker, type Tracker } from '../test/proposals.fixtures.ts'
import { replaceDirectPermissions } from '../modules/users/permissions.repository.ts'

const URL = '/api/calling-kanban/proposals'

/** S10: an interview is completed between the submission and a day from now, by an interviewer who sees the proposal. */
describe('S10 interview dates and interviewers', () => {
  const t = useTestApp()
  let { ward, bishop, clerk } = {} as Tracker
  before(async () => ({ ward, bishop, clerk } = await tracker(t, 0)))

  const stageOf = async (id: number) =>
    (await t.database.db.selectFrom('proposals').select('stage').where('id', '=', id).executeTakeFirstOrThrow()).stage
  const atInterview = async (interviewerId: number) => {
    const p = await submit(bishop.as, ward, { is_release: true })
    assert.equal((await clerk.as('POST', `${URL}/${p.id}/interview?interviewer_id=${interviewerId}`)).statusCode, 200)
    return p
  }

  it('a completion_date in 1900, before the submission or more than a day ahead is a 422, and nothing moves', async () => {
    const p = await atInterview(clerk.user.id)
    const complete = (date: string) => clerk.as('POST', `${URL}/${p.id}/interview/complete?completion_date=${date}`)
    for (const date of [
      '1900-01-01T00:00:00Z',
      '2026-03-01T11:59:59Z',
      '2026-03-02T12:00:01Z',
      '2099-01-01T00:00:00Z',
    ]) {
      assert.deepEqual(locs(await complete(date)), ['query.completion_date'], date)
    }
    assert.equal(await stageOf(p.id), 'interview')
    t.clock.advance(600)
    // Within a day of the (moved) clock.
    assert.equal((await complete('2026-03-02T12:05:00Z')).statusCode, 200)
    assert.equal(await stageOf(p.id), 'sustain')
  })

  it('an assigned interviewer who cannot see the proposal cannot complete it (404); one who can, may', async () => {
    // Assigned while he could see it (scheduling refuses anyone else), then his permission went.
    const stranger = await signedIn(t, { permissions: ['proposals.view'] })
    const hidden = await atInterview(stranger.user.id)
    await replaceDirectPermissions(t.database.db, stranger.user.id, [])
    expectError(await stranger.as('POST', `${URL}/${hidden.id}/interview/complete`), 404, 'not_found')
    assert.equal(await stageOf(hidden.id), 'interview')

    const councilor = await seated(t, 'high_councilor')
    const seen = await atInterview(councilor.user.id)
    assert.equal((await councilor.as('POST', `${URL}/${seen.id}/interview/complete`)).statusCode, 200)
    assert.equal(await stageOf(seen.id), 'sustain')
  })
})
