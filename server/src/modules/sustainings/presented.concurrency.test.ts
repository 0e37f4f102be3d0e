import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { HistoryEntry } from '@stake/contract'
import { signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { bishopOf, createWard, getProposal } from '../../test/proposals.fixtures.ts'
import { allWards, atSustain, present, PROPOSALS } from '../../test/sustainings.fixtures.ts'

/**
 * "Only one winner" (docs/api-reference.md §12): two presentations racing in the last two
 * wards move a stake-scope proposal on exactly once — never twice, never
 * zero times (each seeing the other's row missing).
 */
describe('concurrent presentations of a stake-scope proposal', () => {
  const t = useTestApp()
  let wards: number[]
  let manager: Awaited<ReturnType<typeof signedIn>>
  let bishops: Awaited<ReturnType<typeof signedIn>>[]

  before(async () => {
    wards = [await createWard(t.database.db), await createWard(t.database.db), await createWard(t.database.db)]
    manager = await signedIn(t, { permissions: ['proposals.manage', 'proposals.submit', 'proposals.view'] })
    bishops = [await bishopOf(t, wards[1]!), await bishopOf(t, wards[2]!)]
  })

  it('advances exactly once when the last two wards present at the same time', async () => {
    assert.deepEqual((await allWards(t)).map((w) => w.id).sort(), [...wards].sort())
    for (let round = 0; round < 8; round++) {
      const p = await atSustain(manager.as, wards[0]!, { scope: 'stake' })
      assert.equal((await present(manager.as, p.id, { ward_id: wards[0]! })).statusCode, 200)
      const results = await Promise.all([
        present(bishops[0]!.as, p.id, { ward_id: wards[1]! }),
        present(bishops[1]!.as, p.id, { ward_id: wards[2]! }),
      ])
      assert.deepEqual(
        results.map((r) => r.statusCode),
        [200, 200],
        results.map((r) => r.body).join('\n'),
      )
      const after = await getProposal(manager.as, p.id)
      assert.equal(after.stage, 'set_apart')
      assert.equal(after.presented_in.length, 3)
      const history: HistoryEntry[] = (await manager.as('GET', `${PROPOSALS}/${p.id}/history`)).json()
      assert.equal(history.filter((h) => h.from_stage === 'sustain').length, 1, 'one move off sustain')
    }
  })

  it('lets one of two racing presentations in one ward win and the other get 409 already_presented', async () => {
    const p = await atSustain(manager.as, wards[0]!, { scope: 'stake' })
    const results = await Promise.all([
      present(manager.as, p.id, { ward_id: wards[1]! }),
      present(bishops[0]!.as, p.id, { ward_id: wards[1]! }),
    ])
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 409])
    assert.equal(results.find((r) => r.statusCode === 409)!.json().code, 'already_presented')
  })
})
