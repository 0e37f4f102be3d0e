import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { AuditEntry } from '@stake/contract'
import { inStake } from '../db/stake-scope.ts'
import { ALL_PERMISSIONS, signedIn } from '../test/factories.ts'
import { useTestApp } from '../test/harness.ts'
import { createWard, move, presidency, proposalBody, submit } from '../test/proposals.fixtures.ts'
import { otherStake } from '../test/stakes.fixtures.ts'

/** Rounds of each writer: a proposal kept at sp_approval, another moved on and back. */
const ROUNDS = 15

describe('S14 under load: the audit log never shows a proposal at sp_approval to a reader without proposals.manage', () => {
  const t = useTestApp()
  let seats: ReturnType<typeof presidency>
  before(() => {
    seats = presidency(t)
    return seats
  })

  it('holds while proposals are made and moved in this stake and another', async () => {
    const manager = await signedIn(t, { permissions: ['proposals.manage', 'proposals.submit', 'users.manage'] })
    const reader = await signedIn(t, { permissions: ['users.manage'] })
    const wardId = await createWard(t.database.db)
    const other = await otherStake(t)
    const otherWard = await inStake(other.stakeId, () => createWard(t.database.db))

    /** Proposals submitted and never moved: at sp_approval for the whole test. */
    const kept = new Set<number>()
    let leaks: AuditEntry[] = []
    let stop = false
    const writer = async () => {
      for (let i = 0; i < ROUNDS; i++) {
        const p = await submit(manager.as, wardId)
        kept.add(p.id)
        const q = await submit(manager.as, wardId)
        await move(manager.as, q.id, 'advance', 'sp_approval')
        await move(manager.as, q.id, 'revert', 'hc_approval')
        await move(manager.as, q.id, 'advance', 'sp_approval')
      }
    }
    const otherWriter = async () => {
      while (!stop) {
        const res = await other.as('POST', '/api/calling-kanban/proposals', proposalBody(otherWard))
        assert.equal(res.statusCode, 201, res.body)
      }
    }
    const readerLoop = async () => {
      while (!stop) {
        const known = new Set(kept)
        const res = await reader.as('GET', '/api/audit?action=proposal.&limit=200')
        assert.equal(res.statusCode, 200, res.body)
        const rows = res.json() as AuditEntry[]
        leaks = leaks.concat(rows.filter((r) => r.target_id !== null && known.has(r.target_id)))
      }
    }
    // A fixed amount of work, however fast the machine: the readers read until the writers are done.
    const readers = [otherWriter(), readerLoop(), readerLoop(), readerLoop()]
    await Promise.all([writer(), writer()])
    stop = true
    await Promise.all(readers)
    assert.equal(kept.size, 2 * ROUNDS)
    assert.deepEqual(leaks, [])
  })

  it('follows the proposal, not the test’s belief: with one approval needed, a vote moves it on and only the vote stays hidden', async () => {
    const admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const reader = await signedIn(t, { permissions: ['users.manage'] })
    const { president } = await seats
    const wardId = await createWard(t.database.db)
    const stake = (await admin.as('GET', '/api/stake')).json() as Record<string, unknown>
    const put = (required: number) => {
      const { id: _id, settings_saved: _saved, ...body } = stake
      return admin.as('PUT', '/api/stake', { ...body, sp_approvals_required: required })
    }
    assert.equal((await put(1)).statusCode, 200)
    try {
      const p = await submit(admin.as, wardId)
      const voted = await president.as('POST', `/api/calling-kanban/proposals/${p.id}/approvals?approved=true`)
      assert.ok([200, 201].includes(voted.statusCode), voted.body)
      const seen = ((await reader.as('GET', '/api/audit?action=proposal.&limit=200')).json() as AuditEntry[])
        .filter((e) => e.target_id === p.id)
        .map((e) => e.action)
        .sort()
      // At hc_approval now: what S9 lets a reader see (who moved where), never the presidency's vote.
      assert.deepEqual(seen, ['proposal.create', 'proposal.stage'])
    } finally {
      assert.equal((await put(stake.sp_approvals_required as number)).statusCode, 200)
    }
  })
})
