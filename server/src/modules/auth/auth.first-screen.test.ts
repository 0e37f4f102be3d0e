import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../../test/harness.ts'
import { ALL_PERMISSIONS, createUser, injectAs, signedIn } from '../../test/factories.ts'
import { submit, tracker, type Tracker } from '../../test/proposals.fixtures.ts'

/** A refresh or a sign-in that carries the first screen's data (`?include=me,board,actions`): each part is its own route's answer. */
describe('refresh with the first screen (include)', () => {
  const t = useTestApp()

  const refresh = (cookie: string, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/auth/refresh${query}`, cookies: { refresh_token: cookie } })
  const signIn = (username: string, password: string, query: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/auth/login${query}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username, password }).toString(),
    })
  const BOARD = '/api/calling-kanban/board/compact'
  const ACTIONS = '/api/actions'
  const actionIds = (actions: { items: { proposal: { id: number } }[] }) => actions.items.map((i) => i.proposal.id)
  const cardIds = (board: { cards: { id: number }[] }) => board.cards.map((c) => c.id).sort((a, b) => a - b)
  // One presidency per stake: the tests share it.
  let people: Tracker
  before(async () => {
    people = await tracker(t, 1)
  })

  it('carries the profile, the board and what awaits the caller exactly as their routes answer the new token, the board with its ETag', async () => {
    const { ward, bishop, sp } = people
    const proposal = await submit(bishop.as, ward)
    const res = await refresh(sp.president.refresh, '?include=me,board,actions')
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
    assert.deepEqual(body.actions, (await as('GET', ACTIONS)).json())
    assert.ok(actionIds(body.actions).includes(proposal.id), 'the president votes at sp_approval')
    sp.president.refresh = res.cookies.find((c) => c.name === 'refresh_token')!.value
  })

  it('gives each caller only the board and the queue that caller may see (S9: a proposal at sp_approval is not a high councilor’s)', async () => {
    const { ward, bishop, sp, hcs } = people
    const proposal = await submit(bishop.as, ward)
    const president = (await refresh(sp.president.refresh, '?include=board,actions')).json()
    const councilor = (await refresh(hcs[0]!.refresh, '?include=board,actions')).json()
    assert.ok(cardIds(president.board).includes(proposal.id))
    assert.ok(actionIds(president.actions).includes(proposal.id))
    assert.ok(!cardIds(councilor.board).includes(proposal.id), 'the high councilor sees it only from hc_approval on')
    assert.ok(!actionIds(councilor.actions).includes(proposal.id), 'nor is asked for a vote on it')
    assert.equal(councilor.me, undefined, 'only what was asked for')
    const as = injectAs(t, councilor.access_token)
    assert.deepEqual(councilor.board, (await as('GET', BOARD)).json())
    assert.deepEqual(councilor.actions, (await as('GET', ACTIONS)).json())
  })

  it('leaves out what the caller may not read: the board and the queue while a new password is required, the profile stays', async () => {
    const user = await signedIn(t, { forcePasswordReset: true })
    const res = await refresh(user.refresh, '?include=board,me,actions')
    assert.equal(res.statusCode, 200, res.body)
    const body = res.json()
    assert.equal(body.me.force_password_reset, true)
    assert.equal(body.board, undefined)
    assert.equal(body.board_etag, undefined)
    assert.equal(body.actions, undefined)
  })

  it("carries the wards, the stake and, for whoever may take them, the first-run list's steps, as GET /wards, GET /stake and GET /stake/setup answer", async () => {
    const admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const body = (await refresh(admin.refresh, '?include=me,board,actions,wards,stake,setup')).json()
    const as = injectAs(t, body.access_token)
    assert.ok(
      body.wards.some(
        (w: { id: number; bishop_id: number | null }) => w.id === people.ward && w.bishop_id === people.bishop.user.id,
      ),
    )
    assert.deepEqual(body.wards, (await as('GET', '/api/wards')).json())
    assert.deepEqual(body.stake, (await as('GET', '/api/stake')).json())
    assert.deepEqual(body.setup, (await as('GET', '/api/stake/setup')).json())
    assert.equal(typeof body.setup.wards, 'boolean')

    const plain = await signedIn(t)
    const theirs = (await refresh(plain.refresh, '?include=stake,setup')).json()
    assert.deepEqual(theirs.stake, body.stake)
    assert.equal(theirs.setup, undefined, 'not theirs to take: left out, not a failed refresh')
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

  it('carries the first screen with a sign-in too; a wrong password gets nothing, a wrong include is refused before the password is checked', async () => {
    const { ward, bishop, sp } = people
    const proposal = await submit(bishop.as, ward)
    const { email, password } = sp.president.user
    const res = await signIn(email, password, '?include=me,board,actions')
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['cache-control'], 'no-store')
    const body = res.json()
    const as = injectAs(t, body.access_token)
    assert.deepEqual(body.me, (await as('GET', '/api/auth/me')).json())
    assert.deepEqual(body.board, (await as('GET', BOARD)).json())
    assert.deepEqual(body.actions, (await as('GET', ACTIONS)).json())
    assert.ok(actionIds(body.actions).includes(proposal.id))
    assert.ok(res.cookies.some((c) => c.name === 'refresh_token'))

    const wrong = await signIn(email, 'not the password at all', '?include=me,board,actions')
    assert.equal(wrong.statusCode, 401)
    assert.equal(wrong.json().me, undefined)
    assert.equal(wrong.json().board, undefined)
    assert.equal(wrong.json().actions, undefined)
    const refused = await signIn(email, password, '?include=users')
    assert.equal(refused.statusCode, 422)
    assert.equal(refused.cookies.length, 0, 'no session begun')
    const plain = await signIn(email, password, '')
    assert.deepEqual(Object.keys(plain.json()).sort(), ['access_token', 'expires_in', 'token_type'])
  })

  it('gives a user who must choose a new password only the profile with a sign-in', async () => {
    const user = await createUser(t, { forcePasswordReset: true })
    const res = await signIn(user.email, user.password, '?include=me,board,actions')
    assert.equal(res.statusCode, 200, res.body)
    const body = res.json()
    assert.equal(body.me.force_password_reset, true)
    assert.equal(body.board, undefined)
    assert.equal(body.actions, undefined)
  })

  it('answers 401 for a missing session whatever is asked for, with nothing of anyone’s', async () => {
    const res = await refresh(
      'AAAAAAAAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB',
      '?include=me,board,actions',
    )
    assert.equal(res.statusCode, 401)
    assert.equal(res.json().me, undefined)
    assert.equal(res.json().board, undefined)
    assert.equal(res.json().actions, undefined)
  })
})
