import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { Notification } from '@stake/contract'
import type { signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { inbox } from '../../test/notifications.fixtures.ts'
import { move, submit, tracker, type Tracker } from '../../test/proposals.fixtures.ts'

const URL = '/api/calling-kanban/proposals'
type User = Awaited<ReturnType<typeof signedIn>>

/** The caller's notifications about one proposal that still ask to be read, oldest first. */
async function openAbout(as: User['as'], proposalId: number): Promise<Notification['kind'][]> {
  const { items } = await inbox(as, '?unread=true&limit=200')
  return items
    .filter((n) => n.proposal_id === proposalId)
    .reverse()
    .map((n) => n.kind)
}

describe('work that is done stops asking (docs/api-reference.md §7, §11)', () => {
  const t = useTestApp({ SP_APPROVALS_REQUIRED: '2', HC_APPROVALS_REQUIRED: '2' })
  let { ward, bishop, clerk, sp, hcs } = {} as Tracker
  before(async () => ({ ward, bishop, clerk, sp, hcs } = await tracker(t)))

  const vote = async (as: User['as'], id: number, approved = true) => {
    const res = await as('POST', `${URL}/${id}/approvals?approved=${approved}`)
    assert.ok(res.statusCode === 200 || res.statusCode === 201, res.body)
  }

  it('a vote settles the voter’s own request and drops his unread count; the others still owe theirs', async () => {
    const p = await submit(bishop.as, ward)
    const before = (await inbox(sp.president.as)).unread
    assert.deepEqual(await openAbout(sp.president.as, p.id), ['vote_needed'])
    await vote(sp.president.as, p.id)
    assert.deepEqual(await openAbout(sp.president.as, p.id), [])
    assert.equal((await inbox(sp.president.as)).unread, before - 1)
    assert.deepEqual(await openAbout(sp.second.as, p.id), ['vote_needed'])
  })

  it('moving on settles the votes nobody owes any more, and the next stage’s voters are asked', async () => {
    const p = await submit(bishop.as, ward)
    await vote(sp.president.as, p.id)
    await vote(sp.first.as, p.id) // two approvals: on to hc_approval
    assert.deepEqual(await openAbout(sp.second.as, p.id), [])
    for (const hc of hcs) assert.deepEqual(await openAbout(hc.as, p.id), ['vote_needed'])
    // The submitter keeps only the newest stage notice.
    await move(clerk.as, p.id, 'advance', 'hc_approval')
    assert.deepEqual(await openAbout(bishop.as, p.id), ['stage_changed'])
    for (const hc of hcs) assert.deepEqual(await openAbout(hc.as, p.id), [])
  })

  it('a manual reminder is settled with the vote it asked for', async () => {
    const p = await submit(bishop.as, ward)
    await move(clerk.as, p.id, 'advance', 'sp_approval')
    const res = await clerk.as('POST', `${URL}/${p.id}/remind`)
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(await openAbout(hcs[0]!.as, p.id), ['vote_needed', 'reminder'])
    await vote(hcs[0]!.as, p.id, false)
    assert.deepEqual(await openAbout(hcs[0]!.as, p.id), [])
    assert.deepEqual(await openAbout(hcs[1]!.as, p.id), ['vote_needed', 'reminder'])
  })

  it('a decline settles every vote and the interview; only `declined` asks to be read', async () => {
    const p = await submit(bishop.as, ward, { is_release: true }) // a release starts at interview
    const res = await clerk.as('POST', `${URL}/${p.id}/interview?interviewer_id=${hcs[2]!.user.id}`)
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(await openAbout(hcs[2]!.as, p.id), ['interview_assigned'])
    const declined = await clerk.as('POST', `${URL}/${p.id}/decline`, { reason: 'Not now' })
    assert.equal(declined.statusCode, 200, declined.body)
    assert.deepEqual(await openAbout(hcs[2]!.as, p.id), [])
    assert.deepEqual(await openAbout(bishop.as, p.id), ['declined'])
  })

  it('an interview given to someone else settles the first interviewer’s notice; holding it settles the second’s', async () => {
    const p = await submit(bishop.as, ward, { is_release: true })
    const assign = async (who: User) => {
      const res = await clerk.as('POST', `${URL}/${p.id}/interview?interviewer_id=${who.user.id}`)
      assert.equal(res.statusCode, 200, res.body)
    }
    await assign(hcs[0]!)
    await assign(hcs[1]!)
    assert.deepEqual(await openAbout(hcs[0]!.as, p.id), [])
    assert.deepEqual(await openAbout(hcs[1]!.as, p.id), ['interview_assigned'])
    const done = await clerk.as('POST', `${URL}/${p.id}/interview/complete`)
    assert.equal(done.statusCode, 200, done.body)
    assert.deepEqual(await openAbout(hcs[1]!.as, p.id), [])
  })

  it('a deleted proposal leaves nothing asking in anyone’s inbox', async () => {
    const p = await submit(bishop.as, ward)
    assert.deepEqual(await openAbout(sp.second.as, p.id), ['vote_needed'])
    const before = (await inbox(sp.second.as)).unread
    const res = await clerk.as('DELETE', `${URL}/${p.id}`)
    assert.equal(res.statusCode, 204, res.body)
    assert.equal((await inbox(sp.second.as)).unread, before - 1)
  })

  it('a notification the reader already read keeps its first read time', async () => {
    const p = await submit(bishop.as, ward)
    const mine = (await inbox(sp.second.as)).items.find((n) => n.proposal_id === p.id)!
    t.clock.advance(60)
    const read = await sp.second.as('POST', `/api/notifications/${mine.id}/read`)
    assert.equal(read.statusCode, 204)
    const readAt = (await inbox(sp.second.as)).items.find((n) => n.id === mine.id)!.read_at
    t.clock.advance(60)
    await vote(sp.president.as, p.id)
    await vote(sp.first.as, p.id)
    assert.equal((await inbox(sp.second.as)).items.find((n) => n.id === mine.id)!.read_at, readAt)
  })
})
