import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { isForeignKeyViolation } from '../../db/database.ts'
import { ALL_PERMISSIONS, signedIn } from '../../test/factories.ts'
import { dialect, useTestApp } from '../../test/harness.ts'
import {
  bishopOf,
  createWard,
  getProposal,
  move,
  proposalBody,
  seated,
  submit,
  waitForLockWait,
} from '../../test/proposals.fixtures.ts'

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const URL = '/api/calling-kanban/proposals'

describe('proposals: create, read, list, edit, delete', () => {
  const t = useTestApp()
  let wardA: number
  let wardB: number
  let submitter: Awaited<ReturnType<typeof signedIn>>
  let manager: Awaited<ReturnType<typeof signedIn>>
  let viewer: Awaited<ReturnType<typeof signedIn>>
  let nobody: Awaited<ReturnType<typeof signedIn>>
  let bishopA: Awaited<ReturnType<typeof signedIn>>
  let bishopB: Awaited<ReturnType<typeof signedIn>>

  before(async () => {
    wardA = await createWard(t.database.db)
    wardB = await createWard(t.database.db)
    submitter = await signedIn(t, { permissions: ['proposals.submit'] })
    manager = await signedIn(t, { permissions: ALL_PERMISSIONS })
    viewer = await signedIn(t, { permissions: ['proposals.view'] })
    nobody = await signedIn(t)
    bishopA = await bishopOf(t, wardA)
    bishopB = await bishopOf(t, wardB)
  })

  describe('POST /proposals', () => {
    it('returns 201 with the spec fields, the stage, empty vote counts and no interview', async () => {
      const res = await submitter.as(
        'POST',
        URL,
        proposalBody(wardA, { fname: ' Ann ', lname: 'Lee', proposed_calling: 'Clerk' }),
      )
      assert.equal(res.statusCode, 201, res.body)
      const p = res.json()
      assert.equal(p.fname, 'Ann')
      assert.equal(p.lname, 'Lee')
      assert.equal(p.spouse_name, 'Pat')
      assert.equal(p.proposed_calling, 'Clerk')
      assert.equal(p.ward_id, wardA)
      assert.equal(p.submitter, submitter.user.id)
      assert.equal(p.is_release, false)
      assert.equal(p.stage, 'sp_approval')
      assert.deepEqual(p.approvals, { approved: 0, rejected: 0 })
      assert.equal(p.my_vote, null)
      assert.equal(p.interview, null)
      for (const field of ['submitted_at', 'updated_at', 'stage_changed_at']) assert.match(p[field], ISO_Z, field)
      assert.equal(p.submitted_at, t.clock.now().toISOString())
    })

    it('writes the submission as the first history row (from null)', async () => {
      const p = await submit(submitter.as, wardA)
      const history = (await submitter.as('GET', `${URL}/${p.id}/history`)).json()
      assert.equal(history.length, 1)
      assert.equal(history[0].from_stage, null)
      assert.equal(history[0].to_stage, 'sp_approval')
      assert.equal(history[0].by, submitter.user.id)
      assert.match(history[0].at, ISO_Z)
    })

    it('starts a release at interview', async () => {
      const p = await submit(submitter.as, wardA, { is_release: true })
      assert.equal(p.is_release, true)
      assert.equal(p.stage, 'interview')
    })

    it('stores an empty or missing spouse name as null', async () => {
      assert.equal((await submit(submitter.as, wardA, { spouse_name: '' })).spouse_name, null)
      assert.equal((await submit(submitter.as, wardA, { spouse_name: null })).spouse_name, null)
      const { spouse_name: _, ...without } = proposalBody(wardA)
      const res = await submitter.as('POST', URL, without)
      assert.equal(res.statusCode, 201)
      assert.equal(res.json().spouse_name, null)
    })

    it('accepts the caller as explicit submitter', async () => {
      const p = await submit(submitter.as, wardA, { submitter: submitter.user.id })
      assert.equal(p.submitter, submitter.user.id)
    })

    it('returns 403 without proposals.submit', async () => {
      const res = await nobody.as('POST', URL, proposalBody(wardA))
      assert.equal(res.statusCode, 403)
      assert.equal(res.json().code, 'forbidden')
    })

    it('returns 403 when someone without proposals.manage names another submitter', async () => {
      const res = await submitter.as('POST', URL, proposalBody(wardA, { submitter: manager.user.id }))
      assert.equal(res.statusCode, 403)
    })

    it('lets a manager submit on behalf of another user (201), but not of an unknown one (422)', async () => {
      const p = await submit(manager.as, wardA, { submitter: submitter.user.id })
      assert.equal(p.submitter, submitter.user.id)
      // The named submitter now sees it as their own.
      await getProposal(submitter.as, p.id)
      const res = await manager.as('POST', URL, proposalBody(wardA, { submitter: 999999 }))
      assert.equal(res.statusCode, 422)
      assert.deepEqual(res.json().detail[0].loc, ['body', 'submitter'])
    })

    it('returns 422 when the ward does not exist', async () => {
      const res = await submitter.as('POST', URL, proposalBody(999999))
      assert.equal(res.statusCode, 422)
      assert.deepEqual(res.json().detail[0].loc, ['body', 'ward_id'])
    })

    it('returns 422 listing every missing or blank field', async () => {
      const res = await submitter.as('POST', URL, { fname: '   ', ward_id: 'x' })
      assert.equal(res.statusCode, 422)
      const locs = res.json().detail.map((d: { loc: string[] }) => d.loc.join('.'))
      for (const field of ['body.fname', 'body.lname', 'body.proposed_calling', 'body.ward_id'])
        assert.ok(locs.includes(field), field)
    })

    it('lets a bishop submit for his own ward (201) and not for another (403)', async () => {
      const own = await submit(bishopA.as, wardA)
      assert.equal(own.ward_id, wardA)
      const res = await bishopA.as('POST', URL, proposalBody(wardB))
      assert.equal(res.statusCode, 403)
      assert.equal(res.json().code, 'forbidden')
    })
  })

  describe('visibility', () => {
    it('shows a proposal to its submitter, a manager and the ward bishop; to proposals.view from hc_approval on (S9)', async () => {
      const p = await submit(submitter.as, wardA)
      for (const who of [submitter, manager, bishopA])
        assert.equal((await who.as('GET', `${URL}/${p.id}`)).statusCode, 200)
      assert.equal((await viewer.as('GET', `${URL}/${p.id}`)).statusCode, 404)
      await move(manager.as, p.id, 'advance', 'sp_approval')
      assert.equal((await viewer.as('GET', `${URL}/${p.id}`)).statusCode, 200)
    })

    it('answers 404 to anyone else, including the bishop of another ward', async () => {
      const p = await submit(submitter.as, wardA)
      for (const who of [nobody, bishopB]) {
        const res = await who.as('GET', `${URL}/${p.id}`)
        assert.equal(res.statusCode, 404)
        assert.equal(res.json().code, 'not_found')
      }
    })

    it('a high councilor sees every proposal from hc_approval on (proposals.view through the seat)', async () => {
      const hc = await seated(t, 'high_councilor')
      const p = await submit(bishopB.as, wardB)
      await move(manager.as, p.id, 'advance', 'sp_approval')
      assert.equal((await hc.as('GET', `${URL}/${p.id}`)).statusCode, 200)
    })

    it('answers 404 for an absent id and 422 for a malformed one', async () => {
      assert.equal((await manager.as('GET', `${URL}/999999`)).statusCode, 404)
      const bad = await manager.as('GET', `${URL}/abc`)
      assert.equal(bad.statusCode, 422)
      assert.deepEqual(bad.json().detail[0].loc, ['path', 'proposal_id'])
      assert.equal((await manager.as('GET', `${URL}/0`)).statusCode, 422)
    })

    it('returns 401 without a token', async () => {
      assert.equal((await t.app.inject({ method: 'GET', url: URL })).statusCode, 401)
    })

    it("lists only what the caller may see: a bishop gets his ward's proposals, not another ward's", async () => {
      const ward = await createWard(t.database.db)
      const other = await createWard(t.database.db)
      const bishop = await bishopOf(t, ward)
      const mine = await submit(submitter.as, ward)
      const theirs = await submit(submitter.as, other)
      const res = await bishop.as('GET', `${URL}?limit=200`)
      assert.equal(res.statusCode, 200)
      const ids = res.json().map((p: { id: number }) => p.id)
      assert.ok(ids.includes(mine.id))
      assert.ok(!ids.includes(theirs.id))
      assert.ok(
        res
          .json()
          .every((p: { ward_id: number; submitter: number }) => p.ward_id === ward || p.submitter === bishop.user.id),
      )
      assert.equal(res.headers['x-total-count'], String(ids.length))
      const none = await nobody.as('GET', URL)
      assert.deepEqual(none.json(), [])
      assert.equal(none.headers['x-total-count'], '0')
    })
  })

  describe('GET /proposals filters', () => {
    let ward: number
    before(async () => {
      ward = await createWard(t.database.db)
      await submit(submitter.as, ward, { fname: 'Zelda', lname: 'Quartz', proposed_calling: 'Organist' })
      await submit(submitter.as, ward, { fname: 'Yann', lname: 'Quartz', is_release: true, spouse_name: 'Moira' })
      await submit(submitter.as, ward, { fname: 'Xavi', lname: 'Other', proposed_calling: 'Ward clerk' })
    })

    const list = async (query: string) => {
      const res = await manager.as('GET', `${URL}?ward_id=${ward}&${query}`)
      assert.equal(res.statusCode, 200, res.body)
      return { rows: res.json() as { fname: string }[], total: Number(res.headers['x-total-count']) }
    }

    it('filters by ward_id, stage, is_release and q (names, spouse, calling; case-insensitive)', async () => {
      assert.equal((await list('')).total, 3)
      assert.deepEqual(
        (await list('stage=interview')).rows.map((p) => p.fname),
        ['Yann'],
      )
      assert.deepEqual((await list('is_release=false')).rows.map((p) => p.fname).sort(), ['Xavi', 'Zelda'])
      assert.deepEqual((await list('q=QUARTZ')).rows.map((p) => p.fname).sort(), ['Yann', 'Zelda'])
      assert.deepEqual(
        (await list('q=zelda%20quartz')).rows.map((p) => p.fname),
        ['Zelda'],
      )
      assert.deepEqual(
        (await list('q=moira')).rows.map((p) => p.fname),
        ['Yann'],
      )
      assert.deepEqual(
        (await list('q=organ')).rows.map((p) => p.fname),
        ['Zelda'],
      )
      assert.deepEqual((await list('q=%25')).rows, [])
    })

    it('matches q case-insensitively beyond ASCII, on both databases (Élodie, ÉLODIE, élodie)', async () => {
      const own = await createWard(t.database.db)
      const found = async (q: string) => {
        const res = await manager.as('GET', `${URL}?ward_id=${own}&q=${encodeURIComponent(q)}`)
        assert.equal(res.statusCode, 200, res.body)
        return (res.json() as { id: number }[]).map((r) => r.id)
      }
      const p = await submit(submitter.as, own, {
        fname: 'Élodie',
        lname: 'Åström',
        spouse_name: 'Ñico',
        proposed_calling: 'Öffentlichkeit',
      })
      for (const q of ['élodie', 'ÉLODIE', 'åström élodie', 'ñico', 'ÖFFENTLICH'])
        assert.deepEqual(await found(q), [p.id], q)
      // An edited name is found by its new spelling only.
      const edited = await manager.as('PUT', `${URL}/${p.id}`, proposalBody(own, { fname: 'Ünal', lname: 'Åström' }))
      assert.equal(edited.statusCode, 200, edited.body)
      assert.deepEqual(await found('ünal'), [p.id])
      assert.deepEqual(await found('élodie'), [])
      // The search text is not part of the API shape.
      assert.equal('search_key' in edited.json(), false)
    })

    it('pages with limit and offset, newest first, the total in X-Total-Count', async () => {
      const first = await list('limit=2')
      assert.deepEqual(
        first.rows.map((p) => p.fname),
        ['Xavi', 'Yann'],
      )
      assert.equal(first.total, 3)
      const second = await list('limit=2&offset=2')
      assert.deepEqual(
        second.rows.map((p) => p.fname),
        ['Zelda'],
      )
      assert.equal(second.total, 3)
    })

    it('returns 422 for an unknown stage, a limit over 200 or an offset past 2^31-1', async () => {
      assert.equal((await manager.as('GET', `${URL}?stage=nowhere`)).statusCode, 422)
      assert.equal((await manager.as('GET', `${URL}?limit=201`)).statusCode, 422)
      assert.equal((await manager.as('GET', `${URL}?offset=99999999999999999999`)).statusCode, 422)
      assert.equal((await manager.as('GET', `${URL}?offset=2147483647`)).statusCode, 200)
    })
  })

  describe('PUT /proposals/{id}', () => {
    it('lets the submitter edit while open: 200, updated_at bumped, stage kept', async () => {
      const p = await submit(submitter.as, wardA)
      t.clock.advance(60)
      const res = await submitter.as('PUT', `${URL}/${p.id}`, proposalBody(wardB, { fname: 'New', spouse_name: '' }))
      assert.equal(res.statusCode, 200, res.body)
      const updated = res.json()
      assert.equal(updated.fname, 'New')
      assert.equal(updated.ward_id, wardB)
      assert.equal(updated.spouse_name, null)
      assert.equal(updated.stage, p.stage)
      assert.equal(updated.stage_changed_at, p.stage_changed_at)
      assert.equal(updated.submitted_at, p.submitted_at)
      assert.notEqual(updated.updated_at, p.updated_at)
      assert.equal(updated.updated_at, t.clock.now().toISOString())
    })

    it('returns 403 to a caller who sees the proposal but did not submit it, 404 to one who does not', async () => {
      const p = await submit(submitter.as, wardA)
      await move(manager.as, p.id, 'advance', 'sp_approval')
      assert.equal((await bishopA.as('PUT', `${URL}/${p.id}`, proposalBody(wardA))).statusCode, 403)
      assert.equal((await viewer.as('PUT', `${URL}/${p.id}`, proposalBody(wardA))).statusCode, 403)
      assert.equal((await nobody.as('PUT', `${URL}/${p.id}`, proposalBody(wardA))).statusCode, 404)
    })

    it('returns 403 to the submitter once declined; a manager may still edit (200)', async () => {
      const p = await submit(submitter.as, wardA)
      assert.equal((await manager.as('POST', `${URL}/${p.id}/decline`, { reason: 'No' })).statusCode, 200)
      assert.equal((await submitter.as('PUT', `${URL}/${p.id}`, proposalBody(wardA))).statusCode, 403)
      const res = await manager.as(
        'PUT',
        `${URL}/${p.id}`,
        proposalBody(wardA, { submitter: p.submitter, lname: 'Fixed' }),
      )
      assert.equal(res.statusCode, 200)
      assert.equal(res.json().stage, 'declined')
      assert.equal(res.json().lname, 'Fixed')
    })

    it('returns 422 when is_release would change and 403 when a non-manager changes the submitter', async () => {
      const p = await submit(submitter.as, wardA)
      const release = await submitter.as('PUT', `${URL}/${p.id}`, proposalBody(wardA, { is_release: true }))
      assert.equal(release.statusCode, 422)
      assert.deepEqual(release.json().detail[0].loc, ['body', 'is_release'])
      assert.equal(
        (await submitter.as('PUT', `${URL}/${p.id}`, proposalBody(wardA, { is_release: false }))).statusCode,
        200,
      )
      assert.equal(
        (await submitter.as('PUT', `${URL}/${p.id}`, proposalBody(wardA, { submitter: viewer.user.id }))).statusCode,
        403,
      )
    })

    it('keeps a bishop to his own ward (403) and refuses an unknown ward (422)', async () => {
      const p = await submit(bishopA.as, wardA)
      assert.equal((await bishopA.as('PUT', `${URL}/${p.id}`, proposalBody(wardB))).statusCode, 403)
      assert.equal((await bishopA.as('PUT', `${URL}/${p.id}`, proposalBody(999999))).statusCode, 422)
      assert.equal((await bishopA.as('PUT', `${URL}/${p.id}`, proposalBody(wardA))).statusCode, 200)
    })

    it(
      "refuses a submitter's edit that lands after a reassignment (404) instead of taking the proposal back",
      { skip: dialect === 'sqlite' && 'SQLite runs one writer at a time: the edit cannot interleave' },
      async () => {
        const p = await submit(submitter.as, wardA)
        let edit: Promise<{ statusCode: number }> | undefined
        // The manager's reassignment holds the row while the submitter's edit
        // (which already read the proposal as his) reaches its UPDATE.
        await t.database.db.transaction().execute(async (trx) => {
          await trx.updateTable('proposals').set({ submitter: viewer.user.id }).where('id', '=', p.id).execute()
          edit = submitter.as('PUT', `${URL}/${p.id}`, proposalBody(wardA, { lname: 'Late' }))
          await waitForLockWait(t.database.db)
        })
        assert.equal((await edit!).statusCode, 404)
        const row = await t.database.db
          .selectFrom('proposals')
          .select(['submitter', 'lname'])
          .where('id', '=', p.id)
          .executeTakeFirstOrThrow()
        assert.deepEqual(row, { submitter: viewer.user.id, lname: p.lname })
      },
    )

    it('lets a manager reassign the submitter (200)', async () => {
      const p = await submit(submitter.as, wardA)
      const res = await manager.as('PUT', `${URL}/${p.id}`, proposalBody(wardA, { submitter: viewer.user.id }))
      assert.equal(res.statusCode, 200)
      assert.equal(res.json().submitter, viewer.user.id)
    })
  })

  describe('DELETE /proposals/{id}', () => {
    it('returns 403 without proposals.manage, even for the submitter', async () => {
      const p = await submit(submitter.as, wardA)
      assert.equal((await submitter.as('DELETE', `${URL}/${p.id}`)).statusCode, 403)
    })

    it('returns 204 and removes the proposal with its comments, votes, interview and history', async () => {
      const { president } = { president: await seated(t, 'stake_president') }
      const p = await submit(submitter.as, wardA)
      await submitter.as('POST', `${URL}/${p.id}/comments`, { comment_text: 'hello' })
      await president.as('POST', `${URL}/${p.id}/approvals?approved=true`)
      const res = await manager.as('DELETE', `${URL}/${p.id}`)
      assert.equal(res.statusCode, 204)
      assert.equal(res.body, '')
      assert.equal((await manager.as('GET', `${URL}/${p.id}`)).statusCode, 404)
      assert.equal((await manager.as('DELETE', `${URL}/${p.id}`)).statusCode, 404)
      const db = t.database.db
      for (const table of ['proposal_comments', 'proposal_votes', 'proposal_history', 'proposal_interviews'] as const) {
        const rows = await db.selectFrom(table).select('proposal_id').where('proposal_id', '=', p.id).execute()
        assert.equal(rows.length, 0, table)
      }
    })
  })

  describe('wards that proposals refer to', () => {
    it('cannot be deleted: the database refuses (no cascade on proposals.ward_id)', async () => {
      const ward = await createWard(t.database.db)
      await submit(submitter.as, ward)
      await assert.rejects(t.database.db.deleteFrom('wards').where('id', '=', ward).execute(), (error) =>
        isForeignKeyViolation(error),
      )
    })

    it('DELETE /wards/{id} answers 409 while a proposal refers to the ward, 204 once it is gone', async () => {
      const ward = await createWard(t.database.db)
      const p = await submit(submitter.as, ward)
      const refused = await manager.as('DELETE', `/api/wards/${ward}`)
      assert.equal(refused.statusCode, 409)
      assert.equal((await getProposal(manager.as, p.id)).ward_id, ward)
      assert.equal((await manager.as('DELETE', `${URL}/${p.id}`)).statusCode, 204)
      assert.equal((await manager.as('DELETE', `/api/wards/${ward}`)).statusCode, 204)
    })
  })

  it('serves the same handlers at the root path, and documents every route under /api', async () => {
    const p = await submit(submitter.as, wardA)
    assert.equal((await submitter.as('GET', `/calling-kanban/proposals/${p.id}`)).statusCode, 200)
    assert.equal((await submitter.as('GET', `/calling-kanban/proposals/${p.id}/`)).statusCode, 200)
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json()
    const paths = Object.keys(doc.paths).filter((path) => path.startsWith('/api/calling-kanban'))
    const expected = [
      '/api/calling-kanban/proposals',
      '/api/calling-kanban/proposals/{proposal_id}',
      '/api/calling-kanban/proposals/{proposal_id}/comments',
      '/api/calling-kanban/proposals/{proposal_id}/comments/{comment_id}',
      '/api/calling-kanban/proposals/{proposal_id}/approvals',
      '/api/calling-kanban/proposals/{proposal_id}/interview',
      '/api/calling-kanban/proposals/{proposal_id}/interview/complete',
      '/api/calling-kanban/proposals/{proposal_id}/advance',
      '/api/calling-kanban/proposals/{proposal_id}/revert',
      '/api/calling-kanban/proposals/{proposal_id}/sustain',
      '/api/calling-kanban/proposals/{proposal_id}/set-apart',
      '/api/calling-kanban/proposals/{proposal_id}/record',
      '/api/calling-kanban/proposals/{proposal_id}/decline',
      '/api/calling-kanban/proposals/{proposal_id}/history',
      '/api/calling-kanban/board',
    ]
    for (const path of expected) assert.ok(paths.includes(path), path)
    assert.ok(!Object.keys(doc.paths).some((path) => path.startsWith('/calling-kanban')))
    assert.ok(doc.paths['/api/calling-kanban/proposals/{proposal_id}/advance'].post.responses['409'])
  })
})
