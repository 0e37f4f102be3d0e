import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { HistoryEntry, Proposal } from '@stake/contract'
import { signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { bishopOfNewWard, getProposal, move, submit, tracker, type Tracker } from '../../test/proposals.fixtures.ts'

const URL = '/api/calling-kanban/proposals'

describe('proposal lifecycle', () => {
  const t = useTestApp()
  let { ward, bishop, clerk, sp, hcs } = {} as Tracker
  let secretary: Awaited<ReturnType<typeof signedIn>>
  before(async () => {
    ;({ ward, bishop, clerk, sp, hcs } = await tracker(t))
    secretary = await signedIn(t, { permissions: ['proposals.manage'] })
  })

  const history = async (id: number): Promise<HistoryEntry[]> => {
    const res = await clerk.as('GET', `${URL}/${id}/history`)
    assert.equal(res.statusCode, 200, res.body)
    return res.json()
  }
  const steps = (rows: HistoryEntry[]) => rows.map((h) => `${h.from_stage ?? '-'}>${h.to_stage}`)
  const post = (as: typeof clerk.as, id: number, path: string, body?: unknown) =>
    as('POST', `${URL}/${id}/${path}`, body)

  it('takes a call from submission to done with real roles, writing a history row per change', async () => {
    const p = await submit(bishop.as, ward)
    assert.equal(p.stage, 'sp_approval')

    t.clock.advance(60)
    const first = await post(sp.president.as, p.id, 'approvals?approved=true')
    assert.equal(first.statusCode, 201, first.body)
    assert.equal((await getProposal(bishop.as, p.id)).stage, 'sp_approval')
    assert.equal((await post(sp.first.as, p.id, 'approvals?approved=true')).statusCode, 201)
    const atHc = await getProposal(bishop.as, p.id)
    assert.equal(atHc.stage, 'hc_approval')
    assert.equal(atHc.stage_changed_at, t.clock.now().toISOString())
    assert.deepEqual(atHc.approvals, { approved: 0, rejected: 0 })

    for (const hc of hcs) assert.equal((await post(hc.as, p.id, 'approvals?approved=true')).statusCode, 201)
    assert.equal((await getProposal(bishop.as, p.id)).stage, 'interview')

    const scheduled = await post(
      clerk.as,
      p.id,
      `interview?interviewer_id=${sp.president.user.id}&scheduled_for=2026-03-08T10:00:00Z`,
    )
    assert.equal(scheduled.statusCode, 200, scheduled.body)
    const completed = await post(sp.president.as, p.id, 'interview/complete')
    assert.equal(completed.statusCode, 200, completed.body)
    assert.equal(completed.json().interview_date, t.clock.now().toISOString())
    assert.equal((await getProposal(bishop.as, p.id)).stage, 'sustain')

    assert.equal((await post(clerk.as, p.id, 'sustain')).json().stage, 'set_apart')
    assert.equal((await post(clerk.as, p.id, 'set-apart')).json().stage, 'record')
    const done = await post(clerk.as, p.id, 'record')
    assert.equal(done.statusCode, 200)
    assert.equal(done.json().stage, 'done')

    const rows = await history(p.id)
    assert.deepEqual(steps(rows), [
      '->sp_approval',
      'sp_approval>hc_approval',
      'hc_approval>interview',
      'interview>sustain',
      'sustain>set_apart',
      'set_apart>record',
      'record>done',
    ])
    assert.deepEqual(
      rows.map((h) => h.by),
      [
        bishop.user.id,
        sp.first.user.id,
        hcs[2]!.user.id,
        sp.president.user.id,
        clerk.user.id,
        clerk.user.id,
        clerk.user.id,
      ],
    )
    assert.equal(rows[0]!.by_user.fname, bishop.user.fname)

    // Done is part of the record: no more moves, no deletion.
    assert.equal((await post(clerk.as, p.id, 'advance?from_stage=done')).json().code, 'wrong_stage')
    assert.equal((await post(clerk.as, p.id, 'revert?from_stage=done')).json().code, 'wrong_stage')
    const del = await clerk.as('DELETE', `${URL}/${p.id}`)
    assert.equal(del.statusCode, 409)
    assert.equal(del.json().code, 'wrong_stage')
  })

  it('takes a release from interview to done, skipping set_apart', async () => {
    const p = await submit(bishop.as, ward, { is_release: true })
    assert.equal(p.stage, 'interview')
    assert.equal((await post(clerk.as, p.id, `interview?interviewer_id=${hcs[0]!.user.id}`)).statusCode, 200)
    assert.equal((await post(hcs[0]!.as, p.id, `interview/complete?completion_date=${p.submitted_at}`)).statusCode, 200)
    const atSustain = await getProposal(bishop.as, p.id)
    assert.equal(atSustain.stage, 'sustain')
    assert.equal(atSustain.interview?.interview_date, p.submitted_at)
    const setApart = await post(clerk.as, p.id, 'set-apart')
    assert.equal(setApart.statusCode, 409)
    assert.equal(setApart.json().code, 'wrong_stage')
    assert.equal((await post(clerk.as, p.id, 'sustain')).json().stage, 'record')
    assert.equal((await post(clerk.as, p.id, 'record')).json().stage, 'done')
    assert.deepEqual(steps(await history(p.id)), ['->interview', 'interview>sustain', 'sustain>record', 'record>done'])
  })

  describe('advance and revert', () => {
    it('moves one step along the path and back, each a history row', async () => {
      const p = await submit(bishop.as, ward)
      assert.equal((await move(clerk.as, p.id, 'advance', 'sp_approval')).stage, 'hc_approval')
      assert.equal((await move(clerk.as, p.id, 'advance', 'hc_approval')).stage, 'interview')
      assert.equal((await move(clerk.as, p.id, 'revert', 'interview')).stage, 'hc_approval')
      assert.deepEqual(steps(await history(p.id)).slice(1), [
        'sp_approval>hc_approval',
        'hc_approval>interview',
        'interview>hc_approval',
      ])
    })

    it('follows a release path backwards too (record → sustain)', async () => {
      const p = await submit(bishop.as, ward, { is_release: true })
      await move(clerk.as, p.id, 'advance', 'interview')
      await move(clerk.as, p.id, 'advance', 'sustain')
      assert.equal((await getProposal(clerk.as, p.id)).stage, 'record')
      assert.equal((await move(clerk.as, p.id, 'revert', 'record')).stage, 'sustain')
    })

    it('returns 409 stale_stage when from_stage is not the current stage', async () => {
      const p = await submit(bishop.as, ward)
      const res = await post(clerk.as, p.id, 'advance?from_stage=hc_approval')
      assert.equal(res.statusCode, 409)
      assert.equal(res.json().code, 'stale_stage')
      assert.equal((await getProposal(clerk.as, p.id)).stage, 'sp_approval')
    })

    it('returns 409 wrong_stage when there is no step in that direction', async () => {
      const call = await submit(bishop.as, ward)
      const release = await submit(bishop.as, ward, { is_release: true })
      for (const [id, path] of [
        [call.id, 'revert?from_stage=sp_approval'],
        [release.id, 'revert?from_stage=interview'],
      ] as const) {
        const res = await post(clerk.as, id, path)
        assert.equal(res.statusCode, 409)
        assert.equal(res.json().code, 'wrong_stage')
      }
    })

    it('returns 422 without a valid from_stage and 403 without proposals.manage', async () => {
      const p = await submit(bishop.as, ward)
      assert.equal((await post(clerk.as, p.id, 'advance')).statusCode, 422)
      assert.equal((await post(clerk.as, p.id, 'advance?from_stage=limbo')).statusCode, 422)
      for (const who of [bishop, hcs[0]!])
        assert.equal((await post(who.as, p.id, 'advance?from_stage=sp_approval')).statusCode, 403)
      assert.equal((await post(clerk.as, 999999, 'advance?from_stage=sp_approval')).statusCode, 404)
    })

    it('lets exactly one of two managers moving the same card win; the other gets 409 stale_stage', async () => {
      for (let round = 0; round < 5; round++) {
        const p = await submit(bishop.as, ward)
        const results = await Promise.all([
          post(clerk.as, p.id, 'advance?from_stage=sp_approval'),
          post(secretary.as, p.id, 'advance?from_stage=sp_approval'),
        ])
        assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 409])
        assert.equal(results.find((r) => r.statusCode === 409)!.json().code, 'stale_stage')
        assert.equal((await getProposal(clerk.as, p.id)).stage, 'hc_approval')
        assert.deepEqual(steps(await history(p.id)), ['->sp_approval', 'sp_approval>hc_approval'])
      }
    })

    it('lets exactly one of an advance and a revert from the same stage win', async () => {
      const p = await submit(bishop.as, ward)
      await move(clerk.as, p.id, 'advance', 'sp_approval')
      const results = await Promise.all([
        post(clerk.as, p.id, 'advance?from_stage=hc_approval'),
        post(secretary.as, p.id, 'revert?from_stage=hc_approval'),
      ])
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 409])
      const winner = results.find((r) => r.statusCode === 200)!.json() as Proposal
      assert.equal((await getProposal(clerk.as, p.id)).stage, winner.stage)
      assert.equal((await history(p.id)).length, 3)
    })

    it('clears the interview when moving off interview backwards', async () => {
      const p = await submit(bishop.as, ward)
      await move(clerk.as, p.id, 'advance', 'sp_approval')
      await move(clerk.as, p.id, 'advance', 'hc_approval')
      await post(clerk.as, p.id, `interview?interviewer_id=${hcs[1]!.user.id}`)
      await move(clerk.as, p.id, 'revert', 'interview')
      assert.equal((await getProposal(clerk.as, p.id)).interview, null)
      assert.equal((await clerk.as('GET', `${URL}/${p.id}/interview`)).statusCode, 404)
    })

    it('reopens a completed interview when reverting from sustain (interviewer kept, date cleared)', async () => {
      const p = await submit(bishop.as, ward, { is_release: true })
      await post(clerk.as, p.id, `interview?interviewer_id=${hcs[1]!.user.id}&scheduled_for=2026-03-02T19:00:00Z`)
      await post(clerk.as, p.id, 'interview/complete')
      const back = await move(clerk.as, p.id, 'revert', 'sustain')
      assert.equal(back.stage, 'interview')
      assert.equal(back.interview?.interviewer_id, hcs[1]!.user.id)
      assert.equal(back.interview?.scheduled_for, '2026-03-02T19:00:00.000Z')
      assert.equal(back.interview?.interview_date, null)
      // ...and it can be completed again.
      assert.equal((await post(hcs[1]!.as, p.id, 'interview/complete')).statusCode, 200)
      assert.equal((await getProposal(clerk.as, p.id)).stage, 'sustain')
    })
  })

  describe('named steps', () => {
    it('returns 409 wrong_stage when the proposal is elsewhere, and 403 without proposals.manage', async () => {
      const p = await submit(bishop.as, ward)
      for (const step of ['sustain', 'set-apart', 'record']) {
        const res = await post(clerk.as, p.id, step)
        assert.equal(res.statusCode, 409, step)
        assert.equal(res.json().code, 'wrong_stage')
      }
      assert.equal((await post(hcs[0]!.as, p.id, 'sustain')).statusCode, 403)
    })
  })

  describe('decline', () => {
    it('declines an open proposal with the reason as the history note', async () => {
      const p = await submit(bishop.as, ward)
      await move(clerk.as, p.id, 'advance', 'sp_approval')
      const res = await post(clerk.as, p.id, 'decline', { reason: '  Moved away  ' })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().stage, 'declined')
      const last = (await history(p.id)).at(-1)!
      assert.equal(last.from_stage, 'hc_approval')
      assert.equal(last.to_stage, 'declined')
      assert.equal(last.note, 'Moved away')
      assert.equal(last.by, clerk.user.id)
    })

    it('returns 409 wrong_stage once closed, 422 without a reason, 403 without proposals.manage', async () => {
      const p = await submit(bishop.as, ward)
      assert.equal((await post(clerk.as, p.id, 'decline', {})).statusCode, 422)
      assert.equal((await post(clerk.as, p.id, 'decline', { reason: '   ' })).statusCode, 422)
      assert.equal((await post(bishop.as, p.id, 'decline', { reason: 'x' })).statusCode, 403)
      assert.equal((await post(clerk.as, p.id, 'decline', { reason: 'x' })).statusCode, 200)
      const again = await post(clerk.as, p.id, 'decline', { reason: 'x' })
      assert.equal(again.statusCode, 409)
      assert.equal(again.json().code, 'wrong_stage')
      assert.equal((await post(clerk.as, p.id, 'revert?from_stage=declined')).json().code, 'wrong_stage')
      // A declined proposal may be deleted.
      assert.equal((await clerk.as('DELETE', `${URL}/${p.id}`)).statusCode, 204)
    })
  })

  it('shows the history to whoever sees the proposal, and 404 to others', async () => {
    const p = await submit(bishop.as, ward)
    assert.equal((await bishop.as('GET', `${URL}/${p.id}/history`)).statusCode, 200)
    const outsider = await signedIn(t)
    assert.equal((await outsider.as('GET', `${URL}/${p.id}/history`)).statusCode, 404)
    const otherBishop = await bishopOfNewWard(t)
    assert.equal((await otherBishop.as('GET', `${URL}/${p.id}/history`)).statusCode, 404)
  })
})
