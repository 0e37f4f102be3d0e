import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../../test/harness.ts'
import { injectAs, signedIn } from '../../test/factories.ts'
import { submit, tracker, type Tracker } from '../../test/proposals.fixtures.ts'

/** A refresh that carries the first screen's data (`?include=me,board`): each part is its own route's answer. */
describe('refresh with the first screen (include)', () => {
  const t = useTestApp()

  const refresh = (cookie: string, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/auth/refresh${query}`, cookies: { refresh_token: cookie } })
  const BOARD = '/api/calling-kanban/board/compact'
  const cardIds = (board: { cards: { id: number }[] }) => board.cards.map((c) => c.id).sort((a, b) => a - b)
  // One presidency per stake: the tests share it.
  let people: Tracker
  before(async () => {
    people = await tracker(t, 1)
  })

  it('carries the profile and the board exactly as their routes answer the new token, the board with its ETag', async () => {
    const { ward, bishop, sp } = people
    const proposal = await submit(bishop.as, ward)
    const res = await refresh(sp.president.refresh, '?include=me,board')
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['cache-control'], 'no-store')
    const body = res.json()
    assert.equal(body.token_type, 'bearer')
    const as = injectAs(t, body.access_token)
    assert.deepEqual(body.me, (await as('GET', '/api/auth/me')).json())
    const board = await as('GET', BOARD)
    assert.deepEqual(body.board, board.json())
    assert.equal(body.board_etag, board.headers.etag)
    assert.ok(cardIds(body.board).includes(proposal.id))
    sp.president.refresh = res.cookies.find((c) => c.name === 'refresh_token')!.value
  })

  it('gives each caller only the board that caller may see (S9: a proposal at sp_approval is not a high councilor’s)', async () => {
    const { ward, bishop, sp, hcs } = people
    const proposal = await submit(bishop.as, ward)
    const president = (await refresh(sp.president.refresh, '?include=board')).json()
    const councilor = (await refresh(hcs[0]!.refresh, '?include=board')).json()
    assert.ok(cardIds(president.board).includes(proposal.id))
    assert.ok(!cardIds(councilor.board).includes(proposal.id), 'the high councilor sees it only from hc_approval on')
    assert.equal(councilor.me, undefined, 'only what was asked for')
    assert.deepEqual(councilor.board, (await injectAs(t, councilor.access_token)('GET', BOARD)).json())
  })

  it('leaves out what the caller may not read: the board while a new password is required, the profile stays', async () => {
    const user = await signedIn(t, { forcePasswordReset: true })
    const res = await refresh(user.refresh, '?include=board,me')
    assert.equal(res.statusCode, 200, res.body)
    const body = res.json()
    assert.equal(body.me.force_password_reset, true)
    assert.equal(body.board, undefined)
    assert.equal(body.board_etag, undefined)
  })

  it('answers the plain token without include, and refuses an unknown part before rotating anything', async () => {
    const user = await signedIn(t)
    const plain = await refresh(user.refresh)
    assert.deepEqual(Object.keys(plain.json()).sort(), ['access_token', 'expires_in', 'token_type'])
    const cookie = plain.cookies.find((c) => c.name === 'refresh_token')!.value
    for (const include of ['sessions', 'me,', 'me,users', '', 'ME']) {
      const res = await refresh(cookie, `?include=${include}`)
      assert.equal(res.statusCode, 422, include)
      assert.equal(res.cookies.length, 0, 'no rotation, no cleared cookie')
    }
    assert.equal((await refresh(cookie, '?include=me')).statusCode, 200, 'the cookie still works')
  })

  it('answers 401 for a missing session whatever is asked for, with nothing of anyone’s', async () => {
    const res = await refresh('AAAAAAAAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB', '?include=me,board')
    assert.equal(res.statusCode, 401)
    assert.equal(res.json().me, undefined)
    assert.equal(res.json().board, undefined)
  })
})
