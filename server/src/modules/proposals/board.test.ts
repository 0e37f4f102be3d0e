import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { OPEN_STAGES, type Board } from '@stake/contract'
import { ALL_PERMISSIONS, injectAs, login, signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { useCountedGet } from '../../test/query-counter.ts'
import { bishopOf, createWard, move, seated, seedProposals, submit } from '../../test/proposals.fixtures.ts'

const BOARD = '/api/calling-kanban/board'

describe('board', () => {
  const t = useTestApp()
  let ward: number
  let otherWard: number
  let clerk: Awaited<ReturnType<typeof signedIn>>
  let bishop: Awaited<ReturnType<typeof signedIn>>

  before(async () => {
    ward = await createWard(t.database.db)
    otherWard = await createWard(t.database.db)
    clerk = await seated(t, 'stake_clerk')
    bishop = await bishopOf(t, ward)
  })

  const board = async (as: typeof clerk.as): Promise<Board> => {
    const res = await as('GET', BOARD)
    assert.equal(res.statusCode, 200, res.body)
    return res.json()
  }

  it('has every open stage as a key even when empty, and no closed ones', async () => {
    const empty = await board(clerk.as)
    assert.deepEqual(Object.keys(empty.stages).sort(), [...OPEN_STAGES].sort())
    for (const stage of OPEN_STAGES) assert.deepEqual(empty.stages[stage], [])
    assert.deepEqual(empty.closed_recently, [])
    assert.equal((await t.app.inject({ method: 'GET', url: BOARD })).statusCode, 401)
  })

  it('puts each visible proposal under its stage, with counts, my_vote and interview', async () => {
    const call = await submit(bishop.as, ward)
    const release = await submit(bishop.as, ward, { is_release: true })
    const elsewhere = await submit(clerk.as, otherWard)
    await move(clerk.as, call.id, 'advance', 'sp_approval')

    const all = await board(clerk.as)
    assert.deepEqual(
      all.stages.hc_approval.map((p) => p.id),
      [call.id],
    )
    assert.deepEqual(
      all.stages.interview.map((p) => p.id),
      [release.id],
    )
    assert.deepEqual(
      all.stages.sp_approval.map((p) => p.id),
      [elsewhere.id],
    )
    const card = all.stages.hc_approval[0]!
    assert.deepEqual(card.approvals, { approved: 0, rejected: 0 })
    assert.equal(card.my_vote, null)
    assert.equal(card.interview, null)
    assert.equal(card.stage, 'hc_approval')

    // A bishop sees his ward's cards only; a bishop of another ward none of them.
    const own = await board(bishop.as)
    const ids = Object.values(own.stages)
      .flat()
      .map((p) => p.id)
    assert.deepEqual(ids.sort(), [call.id, release.id].sort())
    const stranger = await bishopOf(t, await createWard(t.database.db))
    assert.deepEqual(Object.values((await board(stranger.as)).stages).flat(), [])
  })

  it("gives the approvals each voting stage needs, its voters and the votes at the cards' current stage", async () => {
    const hc1 = await seated(t, 'high_councilor')
    const hc2 = await seated(t, 'high_councilor')
    const call = await submit(bishop.as, ward)
    const hidden = await submit(clerk.as, otherWard)
    await move(clerk.as, call.id, 'advance', 'sp_approval')
    await move(clerk.as, hidden.id, 'advance', 'sp_approval')
    const vote = await hc1.as('POST', `/api/calling-kanban/proposals/${call.id}/approvals?approved=true`)
    assert.equal(vote.statusCode, 201, vote.body)
    assert.equal(
      (await hc2.as('POST', `/api/calling-kanban/proposals/${hidden.id}/approvals?approved=false`)).statusCode,
      201,
    )

    const all = await board(clerk.as)
    assert.equal(all.voting.sp_approval.required, 2)
    assert.equal(all.voting.hc_approval.required, 3)
    const hcIds = all.voting.hc_approval.voters.map((v) => v.id)
    assert.ok(hcIds.includes(hc1.user.id) && hcIds.includes(hc2.user.id))
    assert.ok(!all.voting.sp_approval.voters.some((v) => v.id === hc1.user.id))
    assert.deepEqual(
      all.votes.filter((v) => v.proposal_id === call.id),
      [{ proposal_id: call.id, voter_id: hc1.user.id, approved: true }],
    )
    assert.deepEqual(
      all.votes.filter((v) => v.proposal_id === hidden.id),
      [{ proposal_id: hidden.id, voter_id: hc2.user.id, approved: false }],
    )

    // A vote at another stage is not the card's; an invisible proposal's votes are left out (S9).
    await move(clerk.as, call.id, 'advance', 'hc_approval')
    const later = await board(clerk.as)
    assert.ok(!later.votes.some((v) => v.proposal_id === call.id))
    await move(clerk.as, call.id, 'revert', 'interview')
    const own = await board(bishop.as)
    assert.deepEqual(
      own.votes.map((v) => v.proposal_id),
      [call.id],
    )

    // A deactivated high councilor no longer counts as a voter.
    const off = await clerk.as('PUT', `/api/users/${hc2.user.id}`, {
      email: hc2.user.email,
      fname: hc2.user.fname,
      lname: hc2.user.lname,
      active: false,
    })
    assert.equal(off.statusCode, 200, off.body)
    assert.ok(!(await board(clerk.as)).voting.hc_approval.voters.some((v) => v.id === hc2.user.id))
  })

  it('lists proposals closed in the last 30 days, most recent first', async () => {
    const a = await submit(clerk.as, otherWard)
    const b = await submit(clerk.as, otherWard)
    await clerk.as('POST', `/api/calling-kanban/proposals/${a.id}/decline`, { reason: 'no' })
    t.clock.advance(60)
    await clerk.as('POST', `/api/calling-kanban/proposals/${b.id}/decline`, { reason: 'no' })
    const closed = (await board(clerk.as)).closed_recently.map((p) => p.id)
    assert.deepEqual(closed.slice(0, 2), [b.id, a.id])
    assert.ok(
      !Object.values((await board(clerk.as)).stages)
        .flat()
        .some((p) => p.id === a.id),
    )
  })

  describe('query count', () => {
    const countedGet = useCountedGet(t)
    const countBoard = async (token: string) => {
      const { res, queries } = await countedGet(token, BOARD)
      assert.equal(res.statusCode, 200, res.body)
      const body = res.json() as Board
      return { queries, cards: Object.values(body.stages).flat().length + body.closed_recently.length }
    }

    it('builds the board with the same number of queries for 10 and for 500 proposals', async () => {
      const manager = await signedIn(t, { permissions: ALL_PERMISSIONS })
      const seedWard = await createWard(t.database.db)
      const seedBishop = await bishopOf(t, seedWard)
      await seedProposals(t.database.db, 10, { wardId: seedWard, submitter: manager.user.id, now: t.clock.now() })
      const small = await countBoard(manager.token)
      const smallBishop = await countBoard(seedBishop.token)
      assert.equal(smallBishop.cards, 10)

      await seedProposals(t.database.db, 490, { wardId: seedWard, submitter: manager.user.id, now: t.clock.now() })
      const large = await countBoard(manager.token)
      const largeBishop = await countBoard(seedBishop.token)
      assert.equal(large.cards - small.cards, 490)
      assert.equal(largeBishop.cards, 500)

      assert.equal(large.queries, small.queries)
      assert.equal(largeBishop.queries, smallBishop.queries)
      // The session check (with user and permissions), the caller's seats, the cards, their votes, the voters,
      // the stake's settings (approvals required).
      assert.ok(large.queries <= 6, `${large.queries} queries`)
      assert.ok(largeBishop.queries <= 6, `${largeBishop.queries} queries`)
    })
  })

  it('leaves out proposals closed more than 30 days ago', async () => {
    const p = await submit(clerk.as, otherWard)
    await clerk.as('POST', `/api/calling-kanban/proposals/${p.id}/decline`, { reason: 'no' })
    t.clock.advance(31 * 24 * 3600)
    const fresh = await login(t, clerk.user)
    const closed = (await board(injectAs(t, fresh.token))).closed_recently
    assert.ok(!closed.some((c) => c.id === p.id))
  })
})
