import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { AuditEntry } from '@stake/contract'
import { signedIn } from '../test/factories.ts'
import { useTestApp } from '../test/harness.ts'
import { bishopOf, createWard, move, presidency, submit } from '../test/proposals.fixtures.ts'

const URL = '/api/calling-kanban/proposals'
type Who = Awaited<ReturnType<typeof signedIn>>

/** S14: the audit log follows S9 for readers without proposals.manage. */
describe('S14 the audit log follows stage privacy', () => {
  const t = useTestApp({ SP_APPROVALS_REQUIRED: '3' })
  let ward: number
  let manager: Who
  let bishop: Who
  let sp: Awaited<ReturnType<typeof presidency>>
  /** users.manage only: reads the log, does not see the presidency's stage. */
  let reader: Who
  /** users.manage and proposals.manage: sees everything. */
  let fullReader: Who

  before(async () => {
    ward = await createWard(t.database.db)
    manager = await signedIn(t, { permissions: ['proposals.manage', 'proposals.submit'] })
    bishop = await bishopOf(t, ward)
    sp = await presidency(t)
    reader = await signedIn(t, { permissions: ['users.manage'] })
    fullReader = await signedIn(t, { permissions: ['users.manage', 'proposals.manage'] })
  })

  /** Every proposal entry the reader gets about `id`, checked against X-Total-Count over the same filter. */
  async function entriesAbout(who: Who, id: number): Promise<AuditEntry[]> {
    const res = await who.as('GET', '/api/audit?action=proposal.&limit=200')
    assert.equal(res.statusCode, 200, res.body)
    const rows = res.json() as AuditEntry[]
    assert.equal(Number(res.headers['x-total-count']), rows.length, 'the total counts only what may be shown')
    return rows.filter((r) => r.target_type === 'proposal' && r.target_id === id)
  }
  const actionsAbout = async (who: Who, id: number) => (await entriesAbout(who, id)).map((r) => r.action).sort()

  it('hides every entry about a proposal at sp_approval (create, votes) from a users.manage-only reader', async () => {
    const p = await submit(bishop.as, ward)
    const vote = await sp.president.as('POST', `${URL}/${p.id}/approvals?approved=true`)
    assert.equal(vote.statusCode, 201, vote.body)
    assert.deepEqual(await actionsAbout(reader, p.id), [])
    assert.deepEqual(await actionsAbout(fullReader, p.id), ['proposal.create', 'proposal.vote'])
    // Also when asked for by exact action or by actor.
    const byActor = await reader.as('GET', `/api/audit?actor_id=${sp.president.user.id}`)
    assert.ok(!(byActor.json() as AuditEntry[]).some((r) => r.target_id === p.id && r.target_type === 'proposal'))
    const exact = await reader.as('GET', '/api/audit?action=proposal.vote&limit=200')
    assert.ok(!(exact.json() as AuditEntry[]).some((r) => r.target_id === p.id))
  })

  it('shows the proposal from hc_approval on, but never the votes cast at sp_approval', async () => {
    const p = await submit(bishop.as, ward)
    assert.equal((await sp.first.as('POST', `${URL}/${p.id}/approvals?approved=true`)).statusCode, 201)
    await move(manager.as, p.id, 'advance', 'sp_approval')
    const seen = await actionsAbout(reader, p.id)
    assert.ok(seen.includes('proposal.create') && seen.includes('proposal.stage'), seen.join())
    assert.ok(!seen.includes('proposal.vote'), 'the sp_approval vote stays private')
    assert.ok((await actionsAbout(fullReader, p.id)).includes('proposal.vote'))
    // Back at the presidency's stage: hidden again, every entry.
    await move(manager.as, p.id, 'revert', 'hc_approval')
    assert.deepEqual(await actionsAbout(reader, p.id), [])
  })

  it('hides a proposal declined at sp_approval, not one declined later', async () => {
    const early = await submit(bishop.as, ward)
    assert.equal((await manager.as('POST', `${URL}/${early.id}/decline`, { reason: 'Not now' })).statusCode, 200)
    assert.deepEqual(await actionsAbout(reader, early.id), [])
    assert.deepEqual(await actionsAbout(fullReader, early.id), ['proposal.create', 'proposal.decline'])

    const later = await submit(bishop.as, ward)
    await move(manager.as, later.id, 'advance', 'sp_approval')
    assert.equal((await manager.as('POST', `${URL}/${later.id}/decline`, { reason: 'No' })).statusCode, 200)
    assert.ok((await actionsAbout(reader, later.id)).includes('proposal.decline'))
  })

  it('hides the entries of a proposal deleted at sp_approval, the deletion included', async () => {
    const p = await submit(bishop.as, ward)
    assert.equal((await manager.as('DELETE', `${URL}/${p.id}`)).statusCode, 204)
    assert.deepEqual(await actionsAbout(reader, p.id), [])
    assert.deepEqual(await actionsAbout(fullReader, p.id), ['proposal.create', 'proposal.delete'])

    const declined = await submit(bishop.as, ward)
    assert.equal((await manager.as('POST', `${URL}/${declined.id}/decline`, { reason: 'No' })).statusCode, 200)
    assert.equal((await manager.as('DELETE', `${URL}/${declined.id}`)).statusCode, 204)
    assert.deepEqual(await actionsAbout(reader, declined.id), [], 'declined at sp_approval, then deleted')

    const moved = await submit(bishop.as, ward)
    await move(manager.as, moved.id, 'advance', 'sp_approval')
    assert.equal((await manager.as('DELETE', `${URL}/${moved.id}`)).statusCode, 204)
    assert.ok((await actionsAbout(reader, moved.id)).includes('proposal.delete'))
  })

  it('leaves entries about other things alone (a failed sign-in has no target)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username: reader.user.email, password: 'wrong-password-1' }).toString(),
    })
    assert.equal(res.statusCode, 401)
    const rows = (await reader.as('GET', '/api/audit?action=auth.login_failed')).json() as AuditEntry[]
    assert.ok(rows.some((r) => r.detail && r.target_id === reader.user.id))
    const users = (await reader.as('GET', '/api/audit?action=user.&limit=5')).json() as AuditEntry[]
    assert.ok(Array.isArray(users))
  })
})
