import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { Approval, HistoryEntry } from '@stake/contract'
import { ALL_PERMISSIONS, signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { getProposal, move, submit, tracker, type Tracker } from '../../test/proposals.fixtures.ts'

const URL = '/api/calling-kanban/proposals'

describe('votes (SP_APPROVALS_REQUIRED=2, HC_APPROVALS_REQUIRED=2)', () => {
  const t = useTestApp({ SP_APPROVALS_REQUIRED: '2', HC_APPROVALS_REQUIRED: '2' })
  let { ward, bishop, clerk, sp, hcs } = {} as Tracker
  let admin: Awaited<ReturnType<typeof signedIn>>
  before(async () => {
    ;({ ward, bishop, clerk, sp, hcs } = await tracker(t, 4))
    admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
  })

  const vote = (as: typeof clerk.as, id: number, approved: unknown) =>
    as('POST', `${URL}/${id}/approvals?approved=${approved}`)
  const history = async (id: number) =>
    ((await clerk.as('GET', `${URL}/${id}/history`)).json() as HistoryEntry[]).map(
      (h) => `${h.from_stage ?? '-'}>${h.to_stage}`,
    )
  const atHc = async () => {
    const p = await submit(bishop.as, ward)
    await move(clerk.as, p.id, 'advance', 'sp_approval')
    return p
  }

  it('records a first vote with 201 and the approval, a changed vote with 200', async () => {
    const p = await submit(bishop.as, ward)
    const first = await vote(sp.president.as, p.id, false)
    assert.equal(first.statusCode, 201, first.body)
    const approval = first.json() as Approval
    assert.equal(approval.proposal_id, p.id)
    assert.equal(approval.approver_id, sp.president.user.id)
    assert.equal(approval.approver.lname, sp.president.user.lname)
    assert.equal(approval.stage, 'sp_approval')
    assert.equal(approval.approved, false)
    assert.equal(approval.created_at, t.clock.now().toISOString())

    t.clock.advance(30)
    const changed = await vote(sp.president.as, p.id, true)
    assert.equal(changed.statusCode, 200)
    assert.equal(changed.json().id, approval.id)
    assert.equal(changed.json().approved, true)
    assert.equal(changed.json().created_at, approval.created_at)
    assert.equal(changed.json().updated_at, t.clock.now().toISOString())
    assert.equal((await vote(sp.president.as, p.id, true)).statusCode, 200)

    const votes = (await clerk.as('GET', `${URL}/${p.id}/approvals`)).json()
    assert.equal(votes.length, 1)
    const seen = await getProposal(sp.president.as, p.id)
    assert.deepEqual(seen.approvals, { approved: 1, rejected: 0 })
    assert.equal(seen.my_vote, true)
    assert.equal((await getProposal(sp.first.as, p.id)).my_vote, null)
  })

  it('returns 403 to callers who vote nowhere, even with every permission', async () => {
    const p = await submit(bishop.as, ward)
    for (const who of [bishop, clerk, admin]) {
      const res = await vote(who.as, p.id, true)
      assert.equal(res.statusCode, 403)
      assert.equal(res.json().code, 'forbidden')
    }
  })

  it('returns 404 to a high councilor at sp_approval (not his to see, S9) and 403 to the presidency at hc_approval', async () => {
    const p = await submit(bishop.as, ward)
    assert.equal((await vote(hcs[0]!.as, p.id, true)).statusCode, 404)
    await move(clerk.as, p.id, 'advance', 'sp_approval')
    assert.equal((await vote(sp.president.as, p.id, true)).statusCode, 403)
  })

  it('returns 409 wrong_stage to a voter at a stage without votes', async () => {
    const p = await submit(bishop.as, ward, { is_release: true })
    for (const who of [sp.president, hcs[0]!]) {
      const res = await vote(who.as, p.id, true)
      assert.equal(res.statusCode, 409)
      assert.equal(res.json().code, 'wrong_stage')
    }
  })

  it('returns 422 without a boolean approved, 404 for an absent proposal', async () => {
    const p = await submit(bishop.as, ward)
    assert.equal((await sp.president.as('POST', `${URL}/${p.id}/approvals`)).statusCode, 422)
    assert.equal((await vote(sp.president.as, p.id, 'maybe')).statusCode, 422)
    assert.equal((await vote(sp.president.as, 999999, true)).statusCode, 404)
  })

  it('auto-advances when the stage reaches the required approvals, inside the vote', async () => {
    const p = await submit(bishop.as, ward)
    await vote(sp.president.as, p.id, true)
    await vote(sp.second.as, p.id, true)
    const now = await getProposal(bishop.as, p.id)
    assert.equal(now.stage, 'hc_approval')
    assert.deepEqual(now.approvals, { approved: 0, rejected: 0 })
    await vote(hcs[0]!.as, p.id, true)
    await vote(hcs[1]!.as, p.id, true)
    assert.equal((await getProposal(bishop.as, p.id)).stage, 'interview')
    const rows = (await clerk.as('GET', `${URL}/${p.id}/history`)).json() as HistoryEntry[]
    assert.equal(rows[2]!.by, hcs[1]!.user.id)
    assert.match(rows[2]!.note ?? '', /2 approvals/)
  })

  it('holds on a rejection until the voter changes it', async () => {
    const p = await atHc()
    await vote(hcs[0]!.as, p.id, false)
    await vote(hcs[1]!.as, p.id, true)
    await vote(hcs[2]!.as, p.id, true)
    await vote(hcs[3]!.as, p.id, true)
    const held = await getProposal(bishop.as, p.id)
    assert.equal(held.stage, 'hc_approval')
    assert.deepEqual(held.approvals, { approved: 3, rejected: 1 })
    assert.equal((await vote(hcs[0]!.as, p.id, true)).statusCode, 200)
    assert.equal((await getProposal(bishop.as, p.id)).stage, 'interview')
  })

  it('counts votes from an earlier visit after a revert, and re-advances on the next vote', async () => {
    const p = await submit(bishop.as, ward)
    await vote(sp.president.as, p.id, true)
    await vote(sp.first.as, p.id, true)
    assert.equal((await getProposal(bishop.as, p.id)).stage, 'hc_approval')

    const back = await move(clerk.as, p.id, 'revert', 'hc_approval')
    // Reverting does not bounce straight back; the earlier approvals are still there.
    assert.equal(back.stage, 'sp_approval')
    assert.deepEqual(back.approvals, { approved: 2, rejected: 0 })
    assert.equal((await getProposal(sp.president.as, p.id)).my_vote, true)

    // A counselor rejects: held. He changes his mind: the earlier votes carry it on.
    assert.equal((await vote(sp.second.as, p.id, false)).statusCode, 201)
    assert.equal((await getProposal(bishop.as, p.id)).stage, 'sp_approval')
    assert.equal((await vote(sp.second.as, p.id, true)).statusCode, 200)
    assert.equal((await getProposal(bishop.as, p.id)).stage, 'hc_approval')
    assert.deepEqual(await history(p.id), [
      '->sp_approval',
      'sp_approval>hc_approval',
      'hc_approval>sp_approval',
      'sp_approval>hc_approval',
    ])
  })

  it('counts HC votes of an earlier visit after a revert from interview', async () => {
    const p = await atHc()
    await vote(hcs[0]!.as, p.id, true)
    await vote(hcs[1]!.as, p.id, true)
    await move(clerk.as, p.id, 'revert', 'interview')
    assert.deepEqual((await getProposal(bishop.as, p.id)).approvals, { approved: 2, rejected: 0 })
    assert.equal((await vote(hcs[1]!.as, p.id, true)).statusCode, 200)
    assert.equal((await getProposal(bishop.as, p.id)).stage, 'interview')
  })

  it('advances exactly once when votes arrive at the same time', async () => {
    for (let round = 0; round < 3; round++) {
      const p = await atHc()
      // Required 2, three voters at once: two votes count at hc_approval,
      // the proposal moves once, the third voter finds it at interview.
      const results = await Promise.all(hcs.slice(0, 3).map((hc) => vote(hc.as, p.id, true)))
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [201, 201, 409])
      assert.equal((await getProposal(bishop.as, p.id)).stage, 'interview')
      assert.deepEqual(await history(p.id), ['->sp_approval', 'sp_approval>hc_approval', 'hc_approval>interview'])
      const votes = (await clerk.as('GET', `${URL}/${p.id}/approvals`)).json() as Approval[]
      assert.equal(votes.length, 2)
    }
  })

  it('keeps one vote per voter per stage when the same voter votes twice at once', async () => {
    const p = await submit(bishop.as, ward)
    const results = await Promise.all([vote(sp.president.as, p.id, true), vote(sp.president.as, p.id, false)])
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 201])
    const votes = (await clerk.as('GET', `${URL}/${p.id}/approvals`)).json() as Approval[]
    assert.equal(votes.length, 1)
  })

  it('enforces one vote per voter per stage in the database', async () => {
    const p = await submit(bishop.as, ward)
    await vote(sp.president.as, p.id, true)
    const now = t.clock.now().toISOString()
    await assert.rejects(
      t.database.db
        .insertInto('proposal_votes')
        .values({
          proposal_id: p.id,
          stage: 'sp_approval',
          approver_id: sp.president.user.id,
          approved: false,
          created_at: now,
          updated_at: now,
        })
        .execute(),
    )
  })

  it('returns 404 to a voter who cannot see the proposal, and records no vote', async () => {
    const p = await atHc()
    // High councilors see every proposal through their calling's proposals.view; take it away.
    const { db } = t.database
    const hc = await db
      .selectFrom('callings')
      .select('id')
      .where('key', '=', 'high_councilor')
      .executeTakeFirstOrThrow()
    const grant = { calling_id: hc.id, permission: 'proposals.view' as const }
    await db
      .deleteFrom('calling_permissions')
      .where('calling_id', '=', hc.id)
      .where('permission', '=', grant.permission)
      .execute()
    try {
      const res = await vote(hcs[0]!.as, p.id, true)
      assert.equal(res.statusCode, 404)
      assert.equal(res.json().code, 'not_found')
    } finally {
      await db.insertInto('calling_permissions').values(grant).execute()
    }
    assert.deepEqual((await clerk.as('GET', `${URL}/${p.id}/approvals`)).json(), [])
  })

  it('lists votes of every stage to the presidency, from hc_approval on to the high council (S9); 403 to a bishop; 404 to others', async () => {
    const p = await submit(bishop.as, ward)
    await vote(sp.president.as, p.id, true)
    await vote(sp.first.as, p.id, true)
    await vote(hcs[0]!.as, p.id, false)
    const res = await sp.second.as('GET', `${URL}/${p.id}/approvals`)
    assert.equal(res.statusCode, 200)
    const votes = res.json() as Approval[]
    assert.deepEqual(
      votes.map((v) => [v.stage, v.approver_id, v.approved]),
      [
        ['sp_approval', sp.president.user.id, true],
        ['sp_approval', sp.first.user.id, true],
        ['hc_approval', hcs[0]!.user.id, false],
      ],
    )
    const council = (await hcs[3]!.as('GET', `${URL}/${p.id}/approvals`)).json() as Approval[]
    assert.deepEqual(
      council.map((v) => [v.stage, v.approver_id, v.approved]),
      [['hc_approval', hcs[0]!.user.id, false]],
    )
    assert.equal((await bishop.as('GET', `${URL}/${p.id}/approvals`)).statusCode, 403)
    const outsider = await signedIn(t)
    assert.equal((await outsider.as('GET', `${URL}/${p.id}/approvals`)).statusCode, 404)
  })
})
