import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Board, Proposal } from '@stake/contract'
import { buildApp } from '../../app.ts'
import type { FastifyTypebox } from '../../http.ts'
import { ALL_PERMISSIONS, injectAs, login, seat, signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { bishopOf, createWard, highCouncilors, move, presidency, seated, submit } from './proposals.factories.ts'

const BOARD = '/api/calling-kanban/board'
const URL = '/api/calling-kanban/proposals'

type As = Awaited<ReturnType<typeof signedIn>>['as']

/**
 * The board is served from a per-instance cache of serialized boards
 * (board.cache.ts). Each test reads the board first (so it is cached), makes
 * one kind of change, and reads it again: the change must show at once.
 */
describe('board cache: every change shows on the next read', () => {
  const t = useTestApp({ SP_APPROVALS_REQUIRED: '2', HC_APPROVALS_REQUIRED: '2' })
  let ward: number
  let clerk: Awaited<ReturnType<typeof signedIn>>
  let bishop: Awaited<ReturnType<typeof signedIn>>
  let sp: Awaited<ReturnType<typeof presidency>>
  let hcs: Awaited<ReturnType<typeof highCouncilors>>

  before(async () => {
    ward = await createWard(t.database.db)
    clerk = await seated(t, 'stake_clerk')
    bishop = await bishopOf(t, ward)
    sp = await presidency(t)
    hcs = await highCouncilors(t, 2)
  })

  const board = async (as: As): Promise<Board> => {
    const res = await as('GET', BOARD)
    assert.equal(res.statusCode, 200, res.body)
    assert.match(String(res.headers['content-type']), /^application\/json/)
    return res.json()
  }
  const card = async (as: As, id: number): Promise<Proposal | undefined> => {
    const b = await board(as)
    return [...Object.values(b.stages).flat(), ...b.closed_recently].find((p) => p.id === id)
  }
  const stageOf = async (as: As, id: number) => {
    const b = await board(as)
    if (b.closed_recently.some((p) => p.id === id)) return 'closed'
    return Object.entries(b.stages).find(([, cards]) => cards.some((p) => p.id === id))?.[0]
  }
  const ok = async (res: Promise<{ statusCode: number; body: string }>) => {
    const r = await res
    assert.ok(r.statusCode < 300, `${r.statusCode} ${r.body}`)
  }

  it('answers the same board twice when nothing changed', async () => {
    const first = await clerk.as('GET', BOARD)
    const second = await clerk.as('GET', BOARD)
    assert.equal(second.body, first.body)
  })

  it('shows a new proposal (POST)', async () => {
    await board(clerk.as)
    await board(bishop.as)
    const p = await submit(bishop.as, ward)
    assert.equal(await stageOf(clerk.as, p.id), 'sp_approval')
    assert.equal(await stageOf(bishop.as, p.id), 'sp_approval')
  })

  it('shows an edit (PUT)', async () => {
    const p = await submit(bishop.as, ward)
    assert.equal((await card(clerk.as, p.id))!.fname, p.fname)
    await ok(bishop.as('PUT', `${URL}/${p.id}`, { fname: 'Edited', lname: p.lname, proposed_calling: 'Clerk', ward_id: ward }))
    assert.equal((await card(clerk.as, p.id))!.fname, 'Edited')
  })

  it('drops a deleted proposal (DELETE)', async () => {
    const p = await submit(bishop.as, ward)
    assert.ok(await card(clerk.as, p.id), 'card shown')
    await ok(clerk.as('DELETE', `${URL}/${p.id}`))
    assert.equal(await card(clerk.as, p.id), undefined)
  })

  it('moves a card on advance, revert and a named step', async () => {
    const p = await submit(bishop.as, ward, { is_release: true })
    assert.equal(await stageOf(clerk.as, p.id), 'interview')
    await move(clerk.as, p.id, 'advance', 'interview')
    assert.equal(await stageOf(clerk.as, p.id), 'sustain')
    await move(clerk.as, p.id, 'revert', 'sustain')
    assert.equal(await stageOf(clerk.as, p.id), 'interview')
    await move(clerk.as, p.id, 'advance', 'interview')
    await ok(clerk.as('POST', `${URL}/${p.id}/sustain`))
    assert.equal(await stageOf(clerk.as, p.id), 'record')
  })

  it('moves a declined card to closed_recently', async () => {
    const p = await submit(bishop.as, ward)
    assert.equal(await stageOf(clerk.as, p.id), 'sp_approval')
    await ok(clerk.as('POST', `${URL}/${p.id}/decline`, { reason: 'No' }))
    assert.equal(await stageOf(clerk.as, p.id), 'closed')
  })

  it("shows a vote: the counts for everyone, my_vote for the voter only; a changed vote too", async () => {
    const p = await submit(bishop.as, ward)
    for (const as of [clerk.as, sp.president.as, sp.first.as]) assert.equal((await card(as, p.id))!.my_vote, null)
    await ok(sp.president.as('POST', `${URL}/${p.id}/approvals?approved=false`))
    assert.deepEqual((await card(clerk.as, p.id))!.approvals, { approved: 0, rejected: 1 })
    assert.equal((await card(sp.president.as, p.id))!.my_vote, false)
    assert.equal((await card(sp.first.as, p.id))!.my_vote, null)
    await ok(sp.president.as('POST', `${URL}/${p.id}/approvals?approved=true`))
    assert.deepEqual((await card(clerk.as, p.id))!.approvals, { approved: 1, rejected: 0 })
    assert.equal((await card(sp.president.as, p.id))!.my_vote, true)
  })

  it('moves a card when a vote advances it', async () => {
    const p = await submit(bishop.as, ward)
    await ok(sp.president.as('POST', `${URL}/${p.id}/approvals?approved=true`))
    assert.equal(await stageOf(clerk.as, p.id), 'sp_approval')
    await ok(sp.first.as('POST', `${URL}/${p.id}/approvals?approved=true`))
    assert.equal(await stageOf(clerk.as, p.id), 'hc_approval')
    assert.deepEqual((await card(clerk.as, p.id))!.approvals, { approved: 0, rejected: 0 })
    await ok(hcs[0]!.as('POST', `${URL}/${p.id}/approvals?approved=true`))
    assert.equal((await card(hcs[0]!.as, p.id))!.my_vote, true)
  })

  it('shows the interview when scheduled, completed, and cleared by a revert off interview', async () => {
    const p = await submit(bishop.as, ward, { is_release: true })
    assert.equal((await card(clerk.as, p.id))!.interview, null)
    await ok(clerk.as('POST', `${URL}/${p.id}/interview?interviewer_id=${clerk.user.id}`))
    const scheduled = (await card(clerk.as, p.id))!.interview
    assert.equal(scheduled?.interviewer_id, clerk.user.id)
    assert.equal(scheduled?.interview_date, null)

    await ok(clerk.as('POST', `${URL}/${p.id}/interview?interviewer_id=${bishop.user.id}`))
    assert.equal((await card(clerk.as, p.id))!.interview?.interviewer_id, bishop.user.id)

    await ok(bishop.as('POST', `${URL}/${p.id}/interview/complete`))
    const done = await card(clerk.as, p.id)
    assert.equal(done!.stage, 'sustain')
    assert.equal(done!.interview?.interview_date, t.clock.now().toISOString())

    const call = await submit(bishop.as, ward)
    await move(clerk.as, call.id, 'advance', 'sp_approval')
    await move(clerk.as, call.id, 'advance', 'hc_approval')
    await ok(clerk.as('POST', `${URL}/${call.id}/interview?interviewer_id=${clerk.user.id}`))
    assert.notEqual((await card(clerk.as, call.id))!.interview, null)
    await move(clerk.as, call.id, 'revert', 'interview')
    assert.equal((await card(clerk.as, call.id))!.interview, null)
  })

  it("follows the caller's seats and permissions, which change without a board write", async () => {
    const vacant = await createWard(t.database.db)
    const p = await submit(clerk.as, vacant)
    const user = await signedIn(t)
    assert.equal(await card(user.as, p.id), undefined)
    // The ward's bishop seat: the ward's cards.
    await seat(t, 'bishop', user.user.id, vacant)
    assert.ok(await card(user.as, p.id), 'card shown')
    await t.database.db.updateTable('calling_slots').set({ user_id: null, filled_at: null }).where('user_id', '=', user.user.id).execute()
    assert.equal(await card(user.as, p.id), undefined)
    // proposals.view granted directly: not a card at sp_approval (S9); proposals.manage: every card.
    await t.database.db.insertInto('user_permissions').values({ user_id: user.user.id, permission: 'proposals.view' }).execute()
    assert.equal(await card(user.as, p.id), undefined)
    await t.database.db.insertInto('user_permissions').values({ user_id: user.user.id, permission: 'proposals.manage' }).execute()
    assert.ok(await card(user.as, p.id), 'card shown')
  })

  it('shows a change written straight to the database, by no instance of the service', async () => {
    const p = await submit(clerk.as, ward)
    assert.ok(await card(clerk.as, p.id), 'card shown')
    await t.database.db.updateTable('proposals').set({ lname: 'Direct' }).where('id', '=', p.id).execute()
    assert.equal((await card(clerk.as, p.id))!.lname, 'Direct')
  })

  describe('two instances over one database', () => {
    let other: FastifyTypebox
    let otherAs: (token: string) => As

    before(async () => {
      // A second instance of the service: its own board cache, the same database.
      other = await buildApp({ config: t.config, db: t.database.db, dialect: t.database.dialect, clock: t.clock })
      await other.ready()
      otherAs = (token) => injectAs({ ...t, app: other }, token)
    })
    after(async () => {
      await other.close()
    })

    it("shows the first instance's writes on the second: create, vote, move, interview, delete", async () => {
      const viaOther = otherAs(clerk.token)
      const presidentViaOther = otherAs(sp.president.token)
      const p = await submit(bishop.as, ward)
      assert.equal(await stageOf(viaOther, p.id), 'sp_approval')
      assert.equal((await card(presidentViaOther, p.id))!.my_vote, null)

      await ok(sp.president.as('POST', `${URL}/${p.id}/approvals?approved=true`))
      assert.deepEqual((await card(viaOther, p.id))!.approvals, { approved: 1, rejected: 0 })
      assert.equal((await card(presidentViaOther, p.id))!.my_vote, true)

      await move(clerk.as, p.id, 'advance', 'sp_approval')
      await move(clerk.as, p.id, 'advance', 'hc_approval')
      assert.equal(await stageOf(viaOther, p.id), 'interview')
      await ok(clerk.as('POST', `${URL}/${p.id}/interview?interviewer_id=${clerk.user.id}`))
      assert.equal((await card(viaOther, p.id))!.interview?.interviewer_id, clerk.user.id)

      await ok(clerk.as('DELETE', `${URL}/${p.id}`))
      assert.equal(await card(viaOther, p.id), undefined)
    })

    it("shows the second instance's writes on the first", async () => {
      const p = await submit(bishop.as, ward)
      assert.equal(await stageOf(clerk.as, p.id), 'sp_approval')
      await move(otherAs(clerk.token), p.id, 'advance', 'sp_approval')
      assert.equal(await stageOf(clerk.as, p.id), 'hc_approval')
    })
  })

  it('keeps one board per caller: a manager and a bishop see their own scopes', async () => {
    const elsewhere = await createWard(t.database.db)
    const p = await submit(clerk.as, elsewhere)
    const manager = await signedIn(t, { permissions: ALL_PERMISSIONS })
    assert.ok(await card(manager.as, p.id), 'card shown')
    assert.equal(await card(bishop.as, p.id), undefined)
    assert.ok(await card(manager.as, p.id), 'card shown')
  })

  // Last: it moves the clock past every access token's lifetime.
  it('drops a closed card once 30 days have passed, with no write in between', async () => {
    const p = await submit(clerk.as, ward)
    await ok(clerk.as('POST', `${URL}/${p.id}/decline`, { reason: 'No' }))
    const watcher = await signedIn(t, { permissions: ['proposals.manage'] })
    assert.equal(await stageOf(watcher.as, p.id), 'closed')
    t.clock.advance(30 * 24 * 3600 - 1)
    const fresh = injectAs(t, (await login(t, watcher.user)).token)
    assert.equal(await stageOf(fresh, p.id), 'closed')
    t.clock.advance(2)
    assert.equal(await stageOf(fresh, p.id), undefined)
  })
})
