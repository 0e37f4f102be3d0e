import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { ActionItem, Actions } from '@stake/contract'
import { signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import {
  bishopOf,
  createWard,
  move,
  seated,
  seedProposals,
  submit,
  tracker,
  type Tracker,
} from '../../test/proposals.fixtures.ts'
import { useCountedGet } from '../../test/query-counter.ts'
import { replaceDirectPermissions } from '../users/permissions.repository.ts'

const URL = '/api/calling-kanban/proposals'
type User = Awaited<ReturnType<typeof signedIn>>

describe('GET /actions', () => {
  // Three approvals needed: one vote leaves the proposal where it is.
  const t = useTestApp({ SP_APPROVALS_REQUIRED: '3', HC_APPROVALS_REQUIRED: '3' })
  let { ward, bishop, clerk, sp } = {} as Tracker
  let hc: User
  before(async () => {
    const cast = await tracker(t, 1)
    ;({ ward, bishop, clerk, sp } = cast)
    hc = cast.hcs[0]!
  })

  const actions = async (who: User): Promise<Actions> => {
    const res = await who.as('GET', '/api/actions')
    assert.equal(res.statusCode, 200, res.body)
    const body = res.json() as Actions
    assert.equal(body.count, body.items.length)
    return body
  }
  /** The caller's items about these proposals, as "kind:id". */
  const itemsOn = async (who: User, ...ids: number[]) =>
    (await actions(who)).items.filter((i) => ids.includes(i.proposal.id)).map((i) => `${i.kind}:${i.proposal.id}`)
  const vote = (who: User, id: number) => who.as('POST', `${URL}/${id}/approvals?approved=true`)
  const schedule = (id: number, interviewer: number) =>
    clerk.as('POST', `${URL}/${id}/interview?interviewer_id=${interviewer}`)

  it('returns 401 without a token, at /api/actions and at the root alias', async () => {
    for (const url of ['/api/actions', '/actions']) {
      const res = await t.app.inject({ method: 'GET', url })
      assert.equal(res.statusCode, 401, url)
    }
    assert.equal((await clerk.as('GET', '/actions')).statusCode, 200)
  })

  it('gives each presidency member a vote item at sp_approval until he votes', async () => {
    const p = await submit(bishop.as, ward)
    const mine = (await actions(sp.president)).items.find((i) => i.proposal.id === p.id)
    assert.deepEqual(mine, {
      kind: 'vote',
      since: p.stage_changed_at,
      proposal: {
        id: p.id,
        fname: p.fname,
        lname: p.lname,
        proposed_calling: p.proposed_calling,
        ward_id: ward,
        stage: 'sp_approval',
        stage_changed_at: p.stage_changed_at,
        kind: 'call',
      },
    } satisfies ActionItem)

    assert.equal((await vote(sp.president, p.id)).statusCode, 201)
    assert.deepEqual(await itemsOn(sp.president, p.id), [])
    // Still at sp_approval (three approvals needed): the others still vote.
    assert.deepEqual(await itemsOn(sp.first, p.id), [`vote:${p.id}`])
  })

  it('gives a high councilor nothing at sp_approval (S9) and a vote item at hc_approval', async () => {
    const p = await submit(bishop.as, ward)
    assert.deepEqual(await itemsOn(hc, p.id), [])
    t.clock.advance(60)
    const moved = await move(clerk.as, p.id, 'advance', 'sp_approval')
    const [item] = (await actions(hc)).items.filter((i) => i.proposal.id === p.id)
    assert.equal(item?.kind, 'vote')
    assert.equal(item?.since, moved.stage_changed_at)
    assert.notEqual(moved.stage_changed_at, p.stage_changed_at)
    // The presidency does not vote at hc_approval.
    assert.deepEqual(await itemsOn(sp.second, p.id), [])
    await vote(hc, p.id)
    assert.deepEqual(await itemsOn(hc, p.id), [])
  })

  it('gives an interviewer an interview item from his assignment until it is completed', async () => {
    const interviewer = await seated(t, 'high_councilor')
    const p = await submit(bishop.as, ward, { is_release: true }) // a release starts at interview
    assert.deepEqual(await itemsOn(clerk, p.id), [`assign:${p.id}`])
    assert.deepEqual(await itemsOn(interviewer, p.id), [])

    t.clock.advance(120)
    assert.equal((await schedule(p.id, interviewer.user.id)).statusCode, 200)
    const [item] = (await actions(interviewer)).items.filter((i) => i.proposal.id === p.id)
    assert.equal(item?.kind, 'interview')
    assert.equal(item?.since, t.clock.iso(), 'since the assignment, not the stage change')
    assert.deepEqual(await itemsOn(clerk, p.id), [], 'assigned: nothing left for the manager')

    const done = await interviewer.as('POST', `${URL}/${p.id}/interview/complete`)
    assert.equal(done.statusCode, 200, done.body)
    assert.deepEqual(await itemsOn(interviewer, p.id), [])
    assert.deepEqual(await itemsOn(clerk, p.id), [`step:${p.id}`], 'now at sustain')
  })

  it('drops an interview item once the proposal has moved past the interview stage uncompleted (not needed)', async () => {
    const interviewer = await seated(t, 'high_councilor')
    const p = await submit(bishop.as, ward, { is_release: true })
    assert.equal((await schedule(p.id, interviewer.user.id)).statusCode, 200)
    assert.deepEqual(await itemsOn(interviewer, p.id), [`interview:${p.id}`])
    // Scheduled and not held: a manager says it was not needed (docs/api-reference.md §7).
    const moved = await clerk.as(
      'POST',
      `/api/calling-kanban/proposals/${p.id}/advance?from_stage=interview&waive=true`,
    )
    assert.equal(moved.statusCode, 200, moved.body)
    assert.deepEqual(await itemsOn(interviewer, p.id), [])
  })

  it('leaves out an interview assigned to someone who can no longer see the proposal', async () => {
    // Assigned while he could see it (S10 refuses anyone else), then his permission went.
    const outsider = await signedIn(t, { permissions: ['proposals.view'] })
    const p = await submit(bishop.as, ward, { is_release: true })
    assert.equal((await schedule(p.id, outsider.user.id)).statusCode, 200)
    await replaceDirectPermissions(t.database.db, outsider.user.id, [])
    assert.deepEqual((await actions(outsider)).items, [])
  })

  it('gives a manager a step item at sustain, set_apart and record, and none once done', async () => {
    const p = await submit(bishop.as, ward)
    assert.deepEqual(await itemsOn(clerk, p.id), [], 'a manager does not vote')
    await move(clerk.as, p.id, 'advance', 'sp_approval')
    await move(clerk.as, p.id, 'advance', 'hc_approval')
    assert.deepEqual(await itemsOn(clerk, p.id), [`assign:${p.id}`])
    await move(clerk.as, p.id, 'advance', 'interview')
    for (const stage of ['sustain', 'set_apart', 'record'] as const) {
      const [item] = (await actions(clerk)).items.filter((i) => i.proposal.id === p.id)
      assert.equal(item?.kind, 'step', stage)
      assert.equal(item?.proposal.stage, stage)
      await move(clerk.as, p.id, 'advance', stage)
    }
    assert.deepEqual(await itemsOn(clerk, p.id), [], 'done')
  })

  it('gives a bishop and submitter without proposals.manage none of these items', async () => {
    const wardB = await createWard(t.database.db)
    const other = await bishopOf(t, wardB)
    const atSp = await submit(other.as, wardB)
    const atInterview = await submit(other.as, wardB, { is_release: true })
    const atSustain = await submit(other.as, wardB, { is_release: true })
    await move(clerk.as, atSustain.id, 'advance', 'interview')
    assert.deepEqual((await actions(other)).items, [])
    // The same proposals do await the manager.
    assert.deepEqual(
      (await itemsOn(clerk, atSp.id, atInterview.id, atSustain.id)).sort(),
      [`assign:${atInterview.id}`, `step:${atSustain.id}`].sort(),
    )
  })

  it('lists items oldest first, by when each began', async () => {
    const a = await submit(bishop.as, ward, { is_release: true }) // assign, since t0
    t.clock.advance(60)
    const b = await submit(bishop.as, ward, { is_release: true })
    t.clock.advance(60)
    await move(clerk.as, b.id, 'advance', 'interview') // step, since t2
    t.clock.advance(60)
    const c = await submit(bishop.as, ward, { is_release: true })
    await move(clerk.as, a.id, 'advance', 'interview') // a becomes a step, since t3, after b
    const { items, count } = await actions(clerk)
    assert.ok(count >= 3)
    const since = items.map((i) => i.since)
    assert.deepEqual(since, [...since].sort(), 'ascending since')
    const order = items.map((i) => i.proposal.id).filter((id) => [a.id, b.id, c.id].includes(id))
    assert.deepEqual(order, [b.id, a.id, c.id])
  })

  describe('query count', () => {
    const countedGet = useCountedGet(t)
    const countActions = async (who: User) => {
      const { res, queries } = await countedGet(who.token, '/api/actions')
      assert.equal(res.statusCode, 200, res.body)
      return { queries, items: (res.json() as Actions).count }
    }

    it('answers with the same number of queries for 12 and for 300 proposals', async () => {
      // The president votes and manages: every kind of item is computed for him.
      const seedWard = await createWard(t.database.db)
      const seedBishop = await bishopOf(t, seedWard)
      await seedProposals(t.database.db, 12, { wardId: seedWard, submitter: seedBishop.user.id, now: t.clock.now() })
      const small = await countActions(sp.president)
      const smallBishop = await countActions(seedBishop)
      await seedProposals(t.database.db, 288, { wardId: seedWard, submitter: seedBishop.user.id, now: t.clock.now() })
      const large = await countActions(sp.president)
      const largeBishop = await countActions(seedBishop)

      // Of every 6 seeded proposals (one per open stage), 5 await the president: sp_approval, interview (assign) and three steps.
      assert.equal(large.items - small.items, (288 / 6) * 5)
      assert.equal(large.queries, small.queries)
      assert.equal(largeBishop.queries, smallBishop.queries)
      // The session check (with user and permissions), the caller's seats, the actions.
      assert.ok(large.queries <= 3, `${large.queries} queries`)
    })
  })
})
