import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { Calling, CallingHistoryEntry, Proposal, ProposalBody } from '@stake/contract'
import { ALL_PERMISSIONS, createUser, signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { expectError, makeCalling } from '../../test/callings.fixtures.ts'
import { createWard, getProposal, move } from '../../test/proposals.fixtures.ts'
import { atSustain, PROPOSALS, type As } from '../../test/sustainings.fixtures.ts'

describe('recording fills and releases slots (docs/api-reference.md §12)', () => {
  const t = useTestApp()
  let ward: number
  let admin: As
  let clerk: As // proposals.manage without the callings' grants

  before(async () => {
    ward = await createWard(t.database.db)
    admin = (await signedIn(t, { permissions: ALL_PERMISSIONS })).as
    clerk = (await signedIn(t, { permissions: ['proposals.manage', 'proposals.submit'] })).as
  })

  /** A proposal at `record` (through sustain and, for a call, set_apart). */
  const atRecord = async (as: As, overrides: Partial<ProposalBody>): Promise<Proposal> => {
    const p = await atSustain(as, ward, overrides)
    let stage = (await move(as, p.id, 'advance', 'sustain')).stage
    if (stage === 'set_apart') stage = (await move(as, p.id, 'advance', 'set_apart')).stage
    assert.equal(stage, 'record')
    return p
  }
  const calling = async (id: number): Promise<Calling> => (await admin('GET', `/api/callings/${id}`)).json()
  const history = async (id: number): Promise<CallingHistoryEntry[]> =>
    (await admin('GET', `/api/callings/${id}/history`)).json()
  const holders = async (id: number) => (await calling(id)).slots.map((s) => s.user_id)

  it('seats the user in a vacant slot when the call is recorded, shown on the roster and its history', async () => {
    const c = await makeCalling(admin, { max_slots: 2 })
    const user = await createUser(t)
    const p = await atRecord(admin, { calling_id: c.id, user_id: user.id })
    const res = await admin('POST', `${PROPOSALS}/${p.id}/record`)
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().stage, 'done')
    assert.deepEqual(await holders(c.id), [user.id, null])
    const rows = await history(c.id)
    assert.deepEqual(
      rows.map((h) => [h.slot_id, h.user_id, h.to]),
      [[1, user.id, null]],
    )
  })

  it('the seat keeps the day its new holder was set apart (the set apart step’s date)', async () => {
    const c = await makeCalling(admin)
    const user = await createUser(t)
    const p = await atSustain(admin, ward, { calling_id: c.id, user_id: user.id })
    assert.equal((await move(admin, p.id, 'advance', 'sustain')).stage, 'set_apart')
    const day = t.clock.iso().slice(0, 10)
    assert.equal((await admin('POST', `${PROPOSALS}/${p.id}/set-apart?date=${day}`)).statusCode, 200)
    assert.equal((await admin('POST', `${PROPOSALS}/${p.id}/record`)).statusCode, 200)
    const slot = (await calling(c.id)).slots[0]!
    assert.equal(slot.user_id, user.id)
    assert.equal(slot.set_apart, day)
  })

  it('also seats when a manager advances from record', async () => {
    const c = await makeCalling(admin)
    const user = await createUser(t)
    const p = await atRecord(admin, { calling_id: c.id, user_id: user.id })
    assert.equal((await move(admin, p.id, 'advance', 'record')).stage, 'done')
    assert.deepEqual(await holders(c.id), [user.id])
  })

  it('returns 409 no_vacancy and changes nothing when every slot is filled', async () => {
    const c = await makeCalling(admin)
    const holder = await createUser(t)
    assert.equal((await admin('PUT', `/api/callings/${c.id}/1`, { user_id: holder.id })).statusCode, 200)
    const released = await createUser(t)
    const other = await makeCalling(admin)
    await admin('PUT', `/api/callings/${other.id}/1`, { user_id: released.id })
    const p = await atRecord(admin, {
      calling_id: c.id,
      user_id: (await createUser(t)).id,
      releases: [{ fname: 'R', lname: 'S', calling: other.name, calling_id: other.id, user_id: released.id }],
    })
    expectError(await admin('POST', `${PROPOSALS}/${p.id}/record`), 409, 'no_vacancy')
    assert.equal((await getProposal(admin, p.id)).stage, 'record')
    assert.deepEqual(await holders(c.id), [holder.id])
    assert.deepEqual(await holders(other.id), [released.id], 'the release in the same transaction is undone')
  })

  it("releases each listed release's slot, then seats the new holder in the freed slot", async () => {
    const c = await makeCalling(admin)
    const [old, next] = [await createUser(t), await createUser(t)]
    await admin('PUT', `/api/callings/${c.id}/1`, { user_id: old.id })
    const p = await atRecord(admin, {
      calling_id: c.id,
      user_id: next.id,
      releases: [{ fname: old.fname, lname: old.lname, calling: c.name, calling_id: c.id, user_id: old.id }],
    })
    assert.equal((await admin('POST', `${PROPOSALS}/${p.id}/record`)).statusCode, 200)
    assert.deepEqual(await holders(c.id), [next.id])
    const rows = await history(c.id)
    assert.equal(rows.length, 2)
    assert.equal(rows[0]!.user_id, old.id)
    assert.ok(rows[0]!.to !== null, 'the old holding is closed')
    assert.equal(rows[1]!.to, null)
  })

  it("recording a release proposal releases its user's slot", async () => {
    const c = await makeCalling(admin)
    const holder = await createUser(t)
    await admin('PUT', `/api/callings/${c.id}/1`, { user_id: holder.id })
    const p = await atRecord(admin, { is_release: true, calling_id: c.id, user_id: holder.id })
    assert.equal((await admin('POST', `${PROPOSALS}/${p.id}/record`)).statusCode, 200)
    assert.deepEqual(await holders(c.id), [null])
  })

  it('applies S3: a manager without the calling’s grants gets 403 and nothing changes', async () => {
    const c = await makeCalling(admin, { permissions: ['speaking.manage'] })
    const user = await createUser(t)
    const p = await atRecord(clerk, { calling_id: c.id, user_id: user.id })
    expectError(await clerk('POST', `${PROPOSALS}/${p.id}/record`), 403, 'forbidden')
    assert.equal((await getProposal(clerk, p.id)).stage, 'record')
    assert.deepEqual(await holders(c.id), [null])
    // Without links, recording needs no seat powers.
    const plain = await atRecord(clerk, {})
    assert.equal((await clerk('POST', `${PROPOSALS}/${plain.id}/record`)).json().stage, 'done')
  })
})
