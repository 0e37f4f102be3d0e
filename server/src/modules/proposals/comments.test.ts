import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { Comment } from '@stake/contract'
import { signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { bishopOf, createWard, seated, submit } from '../../test/proposals.fixtures.ts'

const URL = '/api/calling-kanban/proposals'

describe('comments', () => {
  const t = useTestApp()
  let ward: number
  let submitter: Awaited<ReturnType<typeof signedIn>>
  let bishop: Awaited<ReturnType<typeof signedIn>>
  let hc: Awaited<ReturnType<typeof signedIn>>
  let clerk: Awaited<ReturnType<typeof signedIn>>
  let outsider: Awaited<ReturnType<typeof signedIn>>

  before(async () => {
    ward = await createWard(t.database.db)
    submitter = await signedIn(t, { permissions: ['proposals.submit'] })
    bishop = await bishopOf(t, ward)
    hc = await seated(t, 'high_councilor')
    clerk = await seated(t, 'stake_clerk')
    outsider = await signedIn(t, { permissions: ['proposals.submit'] })
  })

  /** A proposal past the presidency's stage, so that the high councilor sees it (S9). */
  const submitted = async () => {
    const p = await submit(submitter.as, ward)
    await t.database.db.updateTable('proposals').set({ stage: 'hc_approval' }).where('id', '=', p.id).execute()
    return p
  }
  const comments = (id: number) => `${URL}/${id}/comments`
  const comment = async (who: typeof hc, id: number, text: string): Promise<Comment> => {
    const res = await who.as('POST', comments(id), { comment_text: text })
    assert.equal(res.statusCode, 201, res.body)
    return res.json()
  }

  describe('POST /comments', () => {
    it('returns 201 with the comment, written as the caller', async () => {
      const p = await submitted()
      const res = await hc.as('POST', comments(p.id), {
        proposal_id: p.id,
        commenter_id: hc.user.id,
        comment_text: '  Good choice  ',
      })
      assert.equal(res.statusCode, 201, res.body)
      const c = res.json()
      assert.equal(c.proposal_id, p.id)
      assert.equal(c.commenter_id, hc.user.id)
      assert.deepEqual(c.commenter, { id: hc.user.id, fname: hc.user.fname, lname: hc.user.lname })
      assert.equal(c.comment_text, 'Good choice')
      assert.equal(c.created_at, t.clock.now().toISOString())
      assert.equal(c.edited_at, null)
    })

    it('lets anyone who sees the proposal comment: submitter, ward bishop, high councilor', async () => {
      const p = await submitted()
      for (const who of [submitter, bishop, hc]) await comment(who, p.id, 'hello')
    })

    it('returns 404 to a caller who cannot see the proposal', async () => {
      const p = await submitted()
      assert.equal((await outsider.as('POST', comments(p.id), { comment_text: 'x' })).statusCode, 404)
      assert.equal((await clerk.as('POST', comments(999999), { comment_text: 'x' })).statusCode, 404)
    })

    it('returns 422 when proposal_id differs from the path', async () => {
      const p = await submitted()
      const res = await hc.as('POST', comments(p.id), { proposal_id: p.id + 1000, comment_text: 'x' })
      assert.equal(res.statusCode, 422)
      assert.deepEqual(res.json().detail[0].loc, ['body', 'proposal_id'])
    })

    it('returns 403 when commenter_id is someone else', async () => {
      const p = await submitted()
      const res = await clerk.as('POST', comments(p.id), { commenter_id: hc.user.id, comment_text: 'x' })
      assert.equal(res.statusCode, 403)
      assert.equal(res.json().code, 'forbidden')
    })

    it('takes 1 to 5,000 characters (422 when empty, blank or longer)', async () => {
      const p = await submitted()
      for (const text of ['', '   ', 'x'.repeat(5001)]) {
        const res = await hc.as('POST', comments(p.id), { comment_text: text })
        assert.equal(res.statusCode, 422, JSON.stringify(text.slice(0, 5)))
        assert.deepEqual(res.json().detail[0].loc, ['body', 'comment_text'])
      }
      assert.equal((await comment(hc, p.id, 'x'.repeat(5000))).comment_text.length, 5000)
      assert.equal((await hc.as('POST', comments(p.id), {})).statusCode, 422)
    })
  })

  describe('GET /comments', () => {
    it('lists oldest first, and 404 to a caller who cannot see the proposal', async () => {
      const p = await submitted()
      const first = await comment(hc, p.id, 'one')
      t.clock.advance(5)
      const second = await comment(bishop, p.id, 'two')
      t.clock.advance(5)
      const third = await comment(hc, p.id, 'three')
      const res = await submitter.as('GET', comments(p.id))
      assert.equal(res.statusCode, 200)
      assert.deepEqual(
        res.json().map((c: Comment) => c.id),
        [first.id, second.id, third.id],
      )
      assert.equal((await outsider.as('GET', comments(p.id))).statusCode, 404)
    })
  })

  describe('PUT /comments/{comment_id}', () => {
    it('lets the author edit (200) and sets edited_at', async () => {
      const p = await submitted()
      const c = await comment(hc, p.id, 'draft')
      t.clock.advance(10)
      const res = await hc.as('PUT', `${comments(p.id)}/${c.id}`, {
        proposal_id: p.id,
        commenter_id: hc.user.id,
        comment_text: 'final',
      })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().comment_text, 'final')
      assert.equal(res.json().created_at, c.created_at)
      assert.equal(res.json().edited_at, t.clock.now().toISOString())
    })

    it('returns 403 to anyone but the author, a manager included', async () => {
      const p = await submitted()
      const c = await comment(hc, p.id, 'mine')
      for (const who of [clerk, submitter]) {
        assert.equal((await who.as('PUT', `${comments(p.id)}/${c.id}`, { comment_text: 'theirs' })).statusCode, 403)
      }
    })

    it('returns 404 for a comment of another proposal, 422 for a mismatched proposal_id', async () => {
      const p = await submitted()
      const q = await submitted()
      const c = await comment(hc, p.id, 'here')
      assert.equal((await hc.as('PUT', `${comments(q.id)}/${c.id}`, { comment_text: 'x' })).statusCode, 404)
      assert.equal(
        (await hc.as('PUT', `${comments(p.id)}/${c.id}`, { proposal_id: q.id, comment_text: 'x' })).statusCode,
        422,
      )
      assert.equal((await outsider.as('PUT', `${comments(p.id)}/${c.id}`, { comment_text: 'x' })).statusCode, 404)
    })
  })

  describe('DELETE /comments/{comment_id}', () => {
    it('lets the author delete (204)', async () => {
      const p = await submitted()
      const c = await comment(bishop, p.id, 'oops')
      const res = await bishop.as('DELETE', `${comments(p.id)}/${c.id}`)
      assert.equal(res.statusCode, 204)
      assert.deepEqual((await bishop.as('GET', comments(p.id))).json(), [])
      assert.equal((await bishop.as('DELETE', `${comments(p.id)}/${c.id}`)).statusCode, 404)
    })

    it("lets a manager delete someone else's comment (204); others get 403", async () => {
      const p = await submitted()
      const c = await comment(bishop, p.id, 'rude')
      assert.equal((await hc.as('DELETE', `${comments(p.id)}/${c.id}`)).statusCode, 403)
      assert.equal((await submitter.as('DELETE', `${comments(p.id)}/${c.id}`)).statusCode, 403)
      assert.equal((await clerk.as('DELETE', `${comments(p.id)}/${c.id}`)).statusCode, 204)
    })
  })
})
