import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { Approval, Board, Proposal, Ward } from '@stake/contract'
import { useTestApp } from '../test/harness.ts'
import { injectAs, signedIn } from '../test/factories.ts'
import { bishopOf, createWard, highCouncilors, move, presidency, submit } from '../test/proposals.fixtures.ts'

const URL = '/api/calling-kanban/proposals'
type Who = Awaited<ReturnType<typeof signedIn>>

/** S9: sp_approval is the presidency's stage; the high council sees a proposal from hc_approval on. */
describe('S9 stage-aware privacy', () => {
  const t = useTestApp({ SP_APPROVALS_REQUIRED: '3', HC_APPROVALS_REQUIRED: '3' })
  let ward: number
  let manager: Who
  let bishop: Who
  let sp: Awaited<ReturnType<typeof presidency>>
  let hc: Who
  let viewOnly: Who

  before(async () => {
    ward = await createWard(t.database.db)
    manager = await signedIn(t, { permissions: ['proposals.manage', 'proposals.submit'] })
    bishop = await bishopOf(t, ward)
    sp = await presidency(t)
    hc = (await highCouncilors(t, 1))[0]!
    viewOnly = await signedIn(t, { permissions: ['proposals.view'] })
  })

  /** Every way a caller might learn of a proposal: true only if none of them shows it. */
  async function hiddenFrom(who: Who, id: number): Promise<boolean> {
    const reads = await Promise.all([
      who.as('GET', `${URL}/${id}`),
      who.as('GET', `${URL}/${id}/comments`),
      who.as('GET', `${URL}/${id}/history`),
      who.as('GET', `${URL}/${id}/approvals`),
      who.as('POST', `${URL}/${id}/comments`, { comment_text: 'peek' }),
    ])
    const list = (await who.as('GET', `${URL}?limit=200`)).json() as Proposal[]
    const board = (await who.as('GET', '/api/calling-kanban/board')).json() as Board
    const cards = [...Object.values(board.stages).flat(), ...board.closed_recently]
    return reads.every((r) => r.statusCode === 404) && !list.some((p) => p.id === id) && !cards.some((p) => p.id === id)
  }
  const shows = async (who: Who, id: number) => (await who.as('GET', `${URL}/${id}`)).statusCode === 200

  it('a high councilor gets 404 at sp_approval and sees the proposal once it reaches hc_approval', async () => {
    const p = await submit(bishop.as, ward)
    assert.equal(await hiddenFrom(hc, p.id), true)
    assert.equal(await hiddenFrom(viewOnly, p.id), true)
    for (const who of [bishop, manager, sp.president, sp.first, sp.second]) assert.equal(await shows(who, p.id), true)
    await move(manager.as, p.id, 'advance', 'sp_approval')
    assert.equal(await shows(hc, p.id), true)
    assert.equal(await shows(viewOnly, p.id), true)
    const listed = (await hc.as('GET', `${URL}?stage=hc_approval&limit=200`)).json() as Proposal[]
    assert.ok(listed.some((x) => x.id === p.id))
    // Reverted to the presidency's stage, it is theirs again.
    await move(manager.as, p.id, 'revert', 'hc_approval')
    assert.equal(await hiddenFrom(hc, p.id), true)
  })

  it('a proposal declined at sp_approval stays hidden from the high council; one declined later does not', async () => {
    const early = await submit(bishop.as, ward)
    assert.equal((await manager.as('POST', `${URL}/${early.id}/decline`, { reason: 'Not now' })).statusCode, 200)
    assert.equal(await hiddenFrom(hc, early.id), true)
    assert.equal(await shows(sp.president, early.id), true)

    const later = await submit(bishop.as, ward)
    await move(manager.as, later.id, 'advance', 'sp_approval')
    assert.equal((await manager.as('POST', `${URL}/${later.id}/decline`, { reason: 'No' })).statusCode, 200)
    assert.equal(await shows(hc, later.id), true)
  })

  it('votes cast at sp_approval are listed to the presidency and managers only', async () => {
    const p = await submit(bishop.as, ward)
    assert.equal((await sp.president.as('POST', `${URL}/${p.id}/approvals?approved=true`)).statusCode, 201)
    await move(manager.as, p.id, 'advance', 'sp_approval')
    assert.equal((await hc.as('POST', `${URL}/${p.id}/approvals?approved=false`)).statusCode, 201)
    const stages = async (who: Who) =>
      ((await who.as('GET', `${URL}/${p.id}/approvals`)).json() as Approval[]).map((v) => v.stage)
    assert.deepEqual(await stages(hc), ['hc_approval'])
    assert.deepEqual(await stages(viewOnly), ['hc_approval'])
    assert.deepEqual(await stages(sp.second), ['sp_approval', 'hc_approval'])
    assert.deepEqual(await stages(manager), ['sp_approval', 'hc_approval'])
  })

  it('the anonymous wards list (and a ward) has no bishop_id; signed-in callers see it', async () => {
    const anonymous = injectAs(t, null)
    const list = (await anonymous('GET', '/api/wards/')).json() as Ward[]
    assert.equal(list.find((w) => w.id === ward)!.bishop_id, null)
    assert.equal((await anonymous('GET', `/api/wards/${ward}`)).json().bishop_id, null)
    const signed = (await manager.as('GET', '/api/wards/')).json() as Ward[]
    assert.equal(signed.find((w) => w.id === ward)!.bishop_id, bishop.user.id)
  })

  it('a presidency seat without proposals.view still sees the presidency’s stage', async () => {
    // System callings' grants are fixed through the API; an operator could still change them in the database.
    const calling = (
      await t.database.db
        .selectFrom('callings')
        .select('id')
        .where('key', '=', 'stake_second_counselor')
        .executeTakeFirstOrThrow()
    ).id
    await t.database.db.deleteFrom('calling_permissions').where('calling_id', '=', calling).execute()
    const p = await submit(bishop.as, ward)
    assert.equal(await shows(sp.second, p.id), true)
    await move(manager.as, p.id, 'advance', 'sp_approval')
    assert.equal(await shows(sp.second, p.id), false)
  })
})
