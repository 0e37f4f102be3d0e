import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { ALL_PERMISSIONS, signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { bishopOf, createWard, move, presidency, submit, tracker, type Tracker } from '../../test/proposals.fixtures.ts'
import { inbox, kindsAbout } from '../../test/notifications.fixtures.ts'

const URL = '/api/calling-kanban/proposals'
type User = Awaited<ReturnType<typeof signedIn>>

describe('notifications: who is told what (docs/api-reference.md §11)', () => {
  const t = useTestApp({ SP_APPROVALS_REQUIRED: '2', HC_APPROVALS_REQUIRED: '2' })
  let { ward, bishop, clerk, sp, hcs } = {} as Tracker
  before(async () => ({ ward, bishop, clerk, sp, hcs } = await tracker(t)))

  const vote = (as: User['as'], id: number, approved = true) =>
    as('POST', `${URL}/${id}/approvals?approved=${approved}`)

  it('a new proposal tells the presidency its vote is needed, not the submitter, and never the high council (S9)', async () => {
    const p = await submit(bishop.as, ward)
    for (const member of [sp.president, sp.first, sp.second]) {
      assert.deepEqual(await kindsAbout(member.as, p.id), ['vote_needed'])
    }
    assert.deepEqual(await kindsAbout(bishop.as, p.id), [])
    for (const hc of hcs) assert.deepEqual(await kindsAbout(hc.as, p.id), [])
    assert.deepEqual(await kindsAbout(clerk.as, p.id), [])
  })

  it('a presidency member submitting is not told of his own proposal', async () => {
    const p = await submit(sp.first.as, ward)
    assert.deepEqual(await kindsAbout(sp.first.as, p.id), [])
    assert.deepEqual(await kindsAbout(sp.second.as, p.id), ['vote_needed'])
  })

  it('reaching hc_approval by votes: vote_needed to the high council, stage_changed to the submitter, nothing to the voter', async () => {
    const p = await submit(bishop.as, ward)
    assert.equal((await vote(sp.president.as, p.id)).statusCode, 201)
    assert.equal((await vote(sp.first.as, p.id)).statusCode, 201)
    for (const hc of hcs) assert.deepEqual(await kindsAbout(hc.as, p.id), ['vote_needed'])
    assert.deepEqual(await kindsAbout(bishop.as, p.id), ['stage_changed'])
    assert.deepEqual(await kindsAbout(sp.first.as, p.id), ['vote_needed'])
    // The second, who had not voted, hears nothing more: he votes nowhere now.
    assert.deepEqual(await kindsAbout(sp.second.as, p.id), ['vote_needed'])
  })

  it('a revert into a voting stage tells only the voters whose vote there is missing', async () => {
    const p = await submit(bishop.as, ward)
    await move(clerk.as, p.id, 'advance', 'sp_approval')
    await vote(hcs[0]!.as, p.id)
    await vote(hcs[1]!.as, p.id) // two approvals: on to interview
    await move(clerk.as, p.id, 'revert', 'interview')
    assert.deepEqual(await kindsAbout(hcs[0]!.as, p.id), ['vote_needed'])
    assert.deepEqual(await kindsAbout(hcs[1]!.as, p.id), ['vote_needed'])
    assert.deepEqual(await kindsAbout(hcs[2]!.as, p.id), ['vote_needed', 'vote_needed'])
    assert.deepEqual(await kindsAbout(bishop.as, p.id), ['stage_changed', 'stage_changed', 'stage_changed'])
  })

  it('a decline sends only `declined`, to the submitter', async () => {
    const p = await submit(bishop.as, ward)
    await move(clerk.as, p.id, 'advance', 'sp_approval')
    const res = await clerk.as('POST', `${URL}/${p.id}/decline`, { reason: 'Not now' })
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(await kindsAbout(bishop.as, p.id), ['stage_changed', 'declined'])
    for (const hc of hcs) assert.deepEqual(await kindsAbout(hc.as, p.id), ['vote_needed'])
  })

  it('a comment goes to the submitter, the commenters and the voters, never to its author', async () => {
    const p = await submit(bishop.as, ward)
    await move(clerk.as, p.id, 'advance', 'sp_approval')
    await vote(hcs[0]!.as, p.id)
    const say = (as: User['as'], text: string) =>
      as('POST', `${URL}/${p.id}/comments`, { comment_text: text }).then((r) => assert.equal(r.statusCode, 201, r.body))
    await say(hcs[1]!.as, 'First thought')
    await say(hcs[0]!.as, 'A reply')
    const comments = async (as: User['as']) => (await kindsAbout(as, p.id)).filter((k) => k === 'comment').length
    assert.equal(await comments(bishop.as), 2)
    assert.equal(await comments(hcs[0]!.as), 1) // voter: told of the first; author of the second
    assert.equal(await comments(hcs[1]!.as), 1) // commenter: told of the reply only
    assert.equal(await comments(hcs[2]!.as), 0) // neither voted nor commented
    const { items } = await inbox(bishop.as)
    assert.match(items.find((n) => n.kind === 'comment')!.text, new RegExp(hcs[0]!.user.lname))
  })

  it('an interviewer is told of his assignment', async () => {
    const p = await submit(bishop.as, ward, { is_release: true }) // a release starts at interview
    const res = await clerk.as('POST', `${URL}/${p.id}/interview?interviewer_id=${hcs[2]!.user.id}`)
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(await kindsAbout(hcs[2]!.as, p.id), ['interview_assigned'])
    const done = await hcs[2]!.as('POST', `${URL}/${p.id}/interview/complete`)
    assert.equal(done.statusCode, 200, done.body)
    assert.deepEqual(await kindsAbout(bishop.as, p.id), ['stage_changed'])
    assert.deepEqual(await kindsAbout(hcs[2]!.as, p.id), ['interview_assigned'])
  })

  it('one change gives one notification per recipient: a submitting high councilor gets only vote_needed', async () => {
    const p = await submit(hcs[1]!.as, ward)
    await move(clerk.as, p.id, 'advance', 'sp_approval')
    assert.deepEqual(await kindsAbout(hcs[1]!.as, p.id), ['vote_needed'])
  })

  it('texts are in the recipient language', async () => {
    await t.database.db.updateTable('users').set({ language: 'es' }).where('id', '=', hcs[2]!.user.id).execute()
    const p = await submit(bishop.as, ward, { proposed_calling: 'Maestro' })
    await move(clerk.as, p.id, 'advance', 'sp_approval')
    const { items } = await inbox(hcs[2]!.as)
    const mine = items.find((n) => n.proposal_id === p.id)!
    assert.equal(mine.text, `Se necesita su voto: ${p.fname} ${p.lname} como Maestro (aprobación del sumo consejo).`)
    const english = (await inbox(hcs[0]!.as)).items.find((n) => n.proposal_id === p.id)!
    assert.equal(english.text, `Your vote is needed: ${p.fname} ${p.lname} as Maestro (high council approval).`)
    await t.database.db.updateTable('users').set({ language: 'en' }).where('id', '=', hcs[2]!.user.id).execute()
  })

  it('inactive users are never notified', async () => {
    await t.database.db.updateTable('users').set({ active: false }).where('id', '=', hcs[2]!.user.id).execute()
    const p = await submit(bishop.as, ward)
    await move(clerk.as, p.id, 'advance', 'sp_approval')
    const told = await t.database.db
      .selectFrom('notifications')
      .select('kind')
      .where('user_id', '=', hcs[2]!.user.id)
      .where('proposal_id', '=', p.id)
      .execute()
    assert.deepEqual(told, [])
    assert.deepEqual(await kindsAbout(hcs[0]!.as, p.id), ['vote_needed'])
    await t.database.db.updateTable('users').set({ active: true }).where('id', '=', hcs[2]!.user.id).execute()
  })

  it('a refused change writes no notification (same transaction)', async () => {
    const p = await submit(bishop.as, ward)
    const before = (await inbox(bishop.as)).total
    const stale = await clerk.as('POST', `${URL}/${p.id}/advance?from_stage=hc_approval`)
    assert.equal(stale.statusCode, 409)
    assert.equal((await inbox(bishop.as)).total, before)
  })
})

describe('inbox: list, counts, read (docs/api-reference.md §11)', () => {
  const t = useTestApp()
  let ward: number
  let bishop: User
  let sp: Awaited<ReturnType<typeof presidency>>
  let admin: User

  before(async () => {
    ward = await createWard(t.database.db)
    bishop = await bishopOf(t, ward)
    admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    sp = await presidency(t)
    for (let i = 0; i < 3; i++) {
      await submit(bishop.as, ward)
      t.clock.advance(60)
    }
  })

  it('lists newest first with X-Total-Count and X-Unread-Count; ?unread=true filters; limit and offset page', async () => {
    const all = await inbox(sp.president.as)
    assert.equal(all.total, 3)
    assert.equal(all.unread, 3)
    assert.deepEqual(
      all.items.map((n) => n.id),
      [...all.items.map((n) => n.id)].sort((a, b) => b - a),
    )
    const n = all.items[0]!
    assert.deepEqual(Object.keys(n).sort(), ['created_at', 'id', 'kind', 'proposal_id', 'read_at', 'text'])
    assert.equal(n.read_at, null)
    const page = await inbox(sp.president.as, '?limit=1&offset=1')
    assert.deepEqual(
      page.items.map((x) => x.id),
      [all.items[1]!.id],
    )
    assert.equal(page.total, 3)
  })

  it('marks one read (204), then all (204); counts follow; reading twice keeps the first time', async () => {
    const { items } = await inbox(sp.first.as)
    const res = await sp.first.as('POST', `/api/notifications/${items[1]!.id}/read`)
    assert.equal(res.statusCode, 204)
    const after = await inbox(sp.first.as)
    assert.equal(after.unread, 2)
    assert.equal(after.items[1]!.read_at, t.clock.iso())
    const unread = await inbox(sp.first.as, '?unread=true')
    assert.equal(unread.total, 2)
    assert.ok(unread.items.every((x) => x.read_at === null))
    t.clock.advance(5)
    assert.equal((await sp.first.as('POST', `/api/notifications/${items[1]!.id}/read`)).statusCode, 204)
    assert.equal((await inbox(sp.first.as)).items[1]!.read_at, after.items[1]!.read_at)
    assert.equal((await sp.first.as('POST', '/api/notifications/read-all')).statusCode, 204)
    const none = await inbox(sp.first.as)
    assert.equal(none.unread, 0)
    assert.equal(none.total, 3)
  })

  it("another user's notification is 404, as is an unknown one; bad ids are 422", async () => {
    const { items } = await inbox(sp.second.as)
    assert.equal((await admin.as('POST', `/api/notifications/${items[0]!.id}/read`)).statusCode, 404)
    assert.equal((await sp.second.as('POST', '/api/notifications/2147483647/read')).statusCode, 404)
    assert.equal((await sp.second.as('POST', '/api/notifications/abc/read')).statusCode, 422)
    assert.equal((await inbox(sp.second.as)).unread, 3)
    assert.equal((await sp.second.as('GET', '/api/notifications?unread=maybe')).statusCode, 422)
    assert.equal((await sp.second.as('GET', '/api/notifications?limit=201')).statusCode, 422)
  })

  it('needs a signed-in caller (401)', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode, 401)
    assert.equal((await t.app.inject({ method: 'POST', url: '/notifications/read-all' })).statusCode, 401)
  })

  it('email preference: immediate by default, then what was chosen; anything else is 422', async () => {
    const get = async () => (await bishop.as('GET', '/api/notifications/preferences')).json()
    assert.deepEqual(await get(), { email: 'immediate' })
    for (const email of ['daily', 'off', 'immediate']) {
      const res = await bishop.as('PUT', '/api/notifications/preferences', { email })
      assert.equal(res.statusCode, 200, res.body)
      assert.deepEqual(res.json(), { email })
      assert.deepEqual(await get(), { email })
    }
    assert.equal((await bishop.as('PUT', '/api/notifications/preferences', { email: 'weekly' })).statusCode, 422)
    assert.equal((await bishop.as('PUT', '/api/notifications/preferences', {})).statusCode, 422)
  })

  it('GET /outbox needs users.manage (403); empty without SMTP_URL', async () => {
    assert.equal((await bishop.as('GET', '/api/outbox')).statusCode, 403)
    const res = await admin.as('GET', '/api/outbox?status=pending')
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(res.json(), [])
    assert.equal(res.headers['x-total-count'], '0')
    assert.equal((await admin.as('GET', '/api/outbox?status=lost')).statusCode, 422)
  })
})
