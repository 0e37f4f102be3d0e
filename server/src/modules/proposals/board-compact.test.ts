import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { Board, CompactBoard, type CompactCard, type Proposal } from '@stake/contract'
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import type { FastifyTypebox } from '../../http.ts'
import { ALL_PERMISSIONS, injectAs, signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { countingApp } from '../../test/query-counter.ts'
import { bishopOf, createWard, move, seated, seedProposals, submit } from '../../test/proposals.fixtures.ts'

const BOARD = '/api/calling-kanban/board'
const COMPACT = '/api/calling-kanban/board/compact'
const CLOSED = '/api/calling-kanban/board/closed'
const P = (id: number, rest = '') => `/api/calling-kanban/proposals/${id}${rest}`

/** A compact card back in the full shape: every documented field of the proposal is there (docs/api-reference.md §7). */
function expand(card: CompactCard, viewerId: number): Proposal {
  const { approved_by = [], rejected_by = [], interview, approvals, ...rest } = card
  const mine = approved_by.includes(viewerId) ? true : rejected_by.includes(viewerId) ? false : null
  if (!approvals) assert.equal(card.my_vote ?? null, mine, `my_vote of ${card.id} agrees with the voters' ids`)
  return {
    ...rest,
    spouse_name: card.spouse_name ?? null,
    is_release: card.is_release ?? false,
    kind: card.kind ?? 'call',
    office: card.office ?? null,
    approvals: approvals ?? { approved: approved_by.length, rejected: rejected_by.length },
    my_vote: card.my_vote ?? null,
    interview: interview ? { ...interview, proposal_id: card.id } : null,
    scope: card.scope ?? 'ward',
    releases: card.releases ?? [],
    calling_id: card.calling_id ?? null,
    user_id: card.user_id ?? null,
    presented_in: card.presented_in ?? [],
  }
}

/**
 * The boards are sent as built (etag.ts: the bytes hashed are the bytes sent,
 * without the response schema's filtering): every field must be one the
 * contract documents, and every value of its type.
 */
function assertContractShape(schema: TSchema, body: unknown, what: string) {
  assert.ok(Value.Check(schema, body), `${what} matches its schema`)
  assert.deepEqual(Value.Clean(schema, structuredClone(body)), body, `${what} has no field the contract leaves out`)
}

const sortById = (cards: Proposal[]) => [...cards].sort((a, b) => a.id - b.id)

describe('compact board', () => {
  const t = useTestApp()
  let ward: number
  let otherWard: number
  let clerk: Awaited<ReturnType<typeof signedIn>>
  let president: Awaited<ReturnType<typeof signedIn>>
  let councilor: Awaited<ReturnType<typeof signedIn>>
  let bishop: Awaited<ReturnType<typeof signedIn>>

  before(async () => {
    ward = await createWard(t.database.db)
    otherWard = await createWard(t.database.db)
    clerk = await seated(t, 'stake_clerk')
    president = await seated(t, 'stake_president')
    councilor = await seated(t, 'high_councilor')
    bishop = await bishopOf(t, ward)
  })

  const get = async <T>(as: typeof clerk.as, url: string): Promise<T> => {
    const res = await as('GET', url)
    assert.equal(res.statusCode, 200, res.body)
    return res.json()
  }

  it('answers the open proposals in full, the closed ones as counts, the voting seats once', async () => {
    const plain = await submit(bishop.as, ward, { spouse_name: null })
    const release = await submit(bishop.as, ward, { is_release: true, spouse_name: 'Ana' })
    const voted = await submit(clerk.as, otherWard, { scope: 'stake' })
    const interviewed = await submit(clerk.as, otherWard)
    for (const stage of ['sp_approval', 'hc_approval'] as const) await move(clerk.as, interviewed.id, 'advance', stage)
    const scheduled = await clerk.as(
      'POST',
      P(interviewed.id, `/interview?interviewer_id=${president.user.id}&scheduled_for=2030-01-01T10:00:00.000Z`),
    )
    assert.equal(scheduled.statusCode, 200, scheduled.body)
    const vote = await president.as('POST', P(voted.id, '/approvals?approved=false'))
    assert.equal(vote.statusCode, 201, vote.body)
    const declined = await submit(clerk.as, otherWard)
    assert.equal((await clerk.as('POST', P(declined.id, '/decline'), { reason: 'no' })).statusCode, 200)

    for (const viewer of [clerk, president, bishop, councilor]) {
      const compact = await get<CompactBoard>(viewer.as, COMPACT)
      const full = await get<Board>(viewer.as, BOARD)
      assertContractShape(CompactBoard, compact, 'the compact board')
      assertContractShape(Board, full, 'the board')
      // Every open card of GET /board, field for field, and nothing closed.
      assert.deepEqual(
        sortById(compact.cards.map((c) => expand(c, viewer.user.id))),
        sortById(Object.values(full.stages).flat()),
      )
      const closed = { done: 0, declined: 0 }
      for (const p of full.closed_recently) closed[p.stage as 'done' | 'declined']++
      assert.deepEqual(compact.closed, closed)
      // The seats by id, their holders' names once.
      for (const stage of ['sp_approval', 'hc_approval'] as const) {
        assert.equal(compact.voting[stage].required, full.voting[stage].required)
        assert.deepEqual(
          compact.voting[stage].voters,
          full.voting[stage].voters.map((v) => v.id),
        )
        for (const v of full.voting[stage].voters)
          assert.deepEqual(
            compact.people.find((p) => p.id === v.id),
            v,
          )
      }
      assert.equal(new Set(compact.people.map((p) => p.id)).size, compact.people.length)
    }

    const mine = await get<CompactBoard>(president.as, COMPACT)
    const card = mine.cards.find((c) => c.id === voted.id)!
    assert.deepEqual(card.rejected_by, [president.user.id])
    assert.equal(card.my_vote, false)
    assert.equal(card.scope, 'stake')
    const bare = mine.cards.find((c) => c.id === plain.id)!
    for (const key of ['spouse_name', 'is_release', 'my_vote', 'interview', 'releases', 'approved_by', 'scope'])
      assert.ok(!(key in bare), `${key} left out at its default`)
    assert.equal(mine.cards.find((c) => c.id === release.id)!.is_release, true)
    assert.deepEqual(mine.cards.find((c) => c.id === interviewed.id)!.interview?.interviewer_id, president.user.id)
  })

  it('names each card’s interviewer once in `people`, and no interviewer of a card the caller may not see', async () => {
    // The clerk holds no voting seat: only the interview puts him in `people`.
    const named = async (as: typeof clerk.as) =>
      (await get<CompactBoard>(as, COMPACT)).people.filter((p) => p.id === clerk.user.id)
    assert.deepEqual(await named(president.as), [], 'not named before he interviews anyone')
    const cards = [await submit(clerk.as, otherWard), await submit(clerk.as, otherWard)]
    for (const card of cards) {
      for (const stage of ['sp_approval', 'hc_approval'] as const) await move(clerk.as, card.id, 'advance', stage)
      const res = await clerk.as('POST', P(card.id, `/interview?interviewer_id=${clerk.user.id}`))
      assert.equal(res.statusCode, 200, res.body)
    }
    const person = { id: clerk.user.id, fname: clerk.user.fname, lname: clerk.user.lname }
    for (const viewer of [president, clerk]) {
      const compact = await get<CompactBoard>(viewer.as, COMPACT)
      for (const card of cards)
        assert.equal(compact.cards.find((c) => c.id === card.id)?.interview?.interviewer_id, clerk.user.id)
      assert.deepEqual(await named(viewer.as), [person], 'named once for two cards')
      assert.equal(new Set(compact.people.map((p) => p.id)).size, compact.people.length)
    }
    // The bishop of the other ward sees neither card, so not who interviews for them (S9).
    const bishopBoard = await get<CompactBoard>(bishop.as, COMPACT)
    assert.ok(!bishopBoard.cards.some((c) => cards.some((card) => card.id === c.id)))
    assert.deepEqual(await named(bishop.as), [])
  })

  it('shows who voted at sp_approval only to the presidency and managers (S9); the tally to every viewer', async () => {
    const own = await submit(bishop.as, ward)
    assert.equal((await president.as('POST', P(own.id, '/approvals?approved=true'))).statusCode, 201)
    const bishopCard = (await get<CompactBoard>(bishop.as, COMPACT)).cards.find((c) => c.id === own.id)!
    assert.deepEqual(bishopCard.approvals, { approved: 1, rejected: 0 })
    assert.ok(!('approved_by' in bishopCard) && !('rejected_by' in bishopCard))
    for (const viewer of [president, clerk]) {
      const card = (await get<CompactBoard>(viewer.as, COMPACT)).cards.find((c) => c.id === own.id)!
      assert.deepEqual(card.approved_by, [president.user.id])
      assert.ok(!('approvals' in card))
    }
    // GET /board alike: the bishop's card has its tally, the board's votes leave out the presidency's.
    const full = await get<Board>(bishop.as, BOARD)
    assert.deepEqual(full.stages.sp_approval.find((p) => p.id === own.id)!.approvals, { approved: 1, rejected: 0 })
    assert.ok(!full.votes.some((v) => v.proposal_id === own.id))
    assert.ok((await get<Board>(clerk.as, BOARD)).votes.some((v) => v.proposal_id === own.id))
  })

  it('keeps the presidency’s stage from the high council and strangers (S9), in the cards and the counts', async () => {
    const hidden = await submit(bishop.as, ward)
    await clerk.as('POST', P(hidden.id, '/decline'), { reason: 'not now' })
    const counts = async (as: typeof clerk.as) => (await get<CompactBoard>(as, COMPACT)).closed
    const closedIds = async (as: typeof clerk.as) =>
      (await get<CompactCard[]>(as, `${CLOSED}?limit=200`)).map((c) => c.id)
    assert.ok((await closedIds(clerk.as)).includes(hidden.id))
    assert.ok((await closedIds(bishop.as)).includes(hidden.id))
    assert.ok(!(await closedIds(councilor.as)).includes(hidden.id))
    const stranger = await bishopOf(t, await createWard(t.database.db))
    assert.deepEqual(await closedIds(stranger.as), [])
    assert.deepEqual(await counts(stranger.as), { done: 0, declined: 0 })
    assert.ok((await counts(councilor.as)).declined < (await counts(clerk.as)).declined)
    const open = await submit(bishop.as, ward)
    assert.ok(!(await get<CompactBoard>(councilor.as, COMPACT)).cards.some((c) => c.id === open.id))
    assert.ok(!(await get<CompactBoard>(stranger.as, COMPACT)).cards.some((c) => c.id === open.id))
  })

  describe('ETag', () => {
    let other: FastifyTypebox

    before(async () => {
      // A second instance of the service on the same database.
      ;({ app: other } = await countingApp(t))
    })
    after(async () => {
      await other.close()
    })

    const conditional = (app: FastifyTypebox, token: string, url: string, etag?: string) =>
      app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${token}`, ...(etag ? { 'if-none-match': etag } : {}) },
      })
    const etagOf = (res: LightMyRequestResponse) => {
      assert.equal(res.statusCode, 200, res.body)
      const tag = res.headers.etag
      assert.ok(typeof tag === 'string' && /^W\/"[\w-]+"$/.test(tag), `ETag ${String(tag)}`)
      return tag
    }

    for (const url of [COMPACT, BOARD]) {
      it(`${url.slice(5)}: 304 while nothing the caller can see changed, on any instance`, async () => {
        const tag = etagOf(await conditional(t.app, councilor.token, url))
        const unchanged = await conditional(t.app, councilor.token, url, tag)
        assert.equal(unchanged.statusCode, 304)
        assert.equal(unchanged.body, '')
        assert.equal(unchanged.headers.etag, tag)
        assert.equal((await conditional(other, councilor.token, url, tag)).statusCode, 304, 'the other instance agrees')
        assert.equal((await conditional(t.app, councilor.token, url, `"x", ${tag}`)).statusCode, 304)
        assert.equal((await conditional(t.app, councilor.token, url, '"something else"')).statusCode, 200)

        // A proposal at the presidency's stage is not the high council's (S9): still 304.
        const hidden = await submit(bishop.as, ward)
        assert.equal((await conditional(other, councilor.token, url, tag)).statusCode, 304)
        // Once it reaches the high council, it is: 200 with a new tag, on either instance.
        await move(clerk.as, hidden.id, 'advance', 'sp_approval')
        const seen = await conditional(other, councilor.token, url, tag)
        const next = etagOf(seen)
        assert.notEqual(next, tag)
        assert.equal((await conditional(t.app, councilor.token, url, next)).statusCode, 304)
        // A vote changes the card's tally.
        await councilor.as('POST', P(hidden.id, '/approvals?approved=true'))
        assert.equal((await conditional(t.app, councilor.token, url, next)).statusCode, 200)
        // Another caller's board is their own: the councilor's tag is not theirs.
        assert.equal((await conditional(t.app, bishop.token, url, next)).statusCode, 200)
      })
    }
  })

  it('is built with the same number of queries for 10 and for 500 proposals', async () => {
    const { app: counted, counter } = await countingApp(t)
    try {
      const manager = await signedIn(t, { permissions: ALL_PERMISSIONS })
      const seedWard = await createWard(t.database.db)
      const count = async () => {
        counter.count = 0
        const res = await injectAs({ ...t, app: counted }, manager.token)('GET', COMPACT)
        assert.equal(res.statusCode, 200, res.body)
        return { queries: counter.count, cards: (res.json() as CompactBoard).cards.length }
      }
      await seedProposals(t.database.db, 10, { wardId: seedWard, submitter: manager.user.id, now: t.clock.now() })
      const small = await count()
      await seedProposals(t.database.db, 490, { wardId: seedWard, submitter: manager.user.id, now: t.clock.now() })
      const large = await count()
      assert.ok(large.cards - small.cards >= 400, `${small.cards} → ${large.cards} cards`)
      assert.equal(large.queries, small.queries)
      // The session check, the caller's seats, the cards, their votes, the closed counts, the voters, the settings.
      assert.ok(large.queries <= 7, `${large.queries} queries`)
    } finally {
      await counted.close()
    }
  })

  it('pages the closed column, most recent first, within the last 30 days', async () => {
    const ids: number[] = []
    for (let i = 0; i < 5; i++) {
      const p = await submit(clerk.as, otherWard)
      t.clock.advance(60)
      assert.equal((await clerk.as('POST', P(p.id, '/decline'), { reason: 'no' })).statusCode, 200)
      ids.unshift(p.id)
    }
    const first = await clerk.as('GET', `${CLOSED}?limit=2`)
    assert.equal(first.statusCode, 200, first.body)
    const total = Number(first.headers['x-total-count'])
    const { done, declined } = (await get<CompactBoard>(clerk.as, COMPACT)).closed
    assert.equal(total, done + declined)
    const second = await get<CompactCard[]>(clerk.as, `${CLOSED}?limit=2&offset=2`)
    assert.deepEqual(
      [...(first.json() as CompactCard[]), ...second].map((c) => c.id),
      ids.slice(0, 4),
    )
    assert.equal(second[0]!.stage, 'declined')
    for (const bad of ['limit=-1', 'limit=201', 'offset=x', 'limit=1e3'])
      assert.equal((await clerk.as('GET', `${CLOSED}?${bad}`)).statusCode, 422, bad)
    assert.equal((await t.app.inject({ method: 'GET', url: CLOSED })).statusCode, 401)
    assert.equal((await t.app.inject({ method: 'GET', url: COMPACT })).statusCode, 401)

    t.clock.advance(31 * 24 * 3600)
    const later = await signedIn(t, { permissions: ['proposals.view', 'proposals.manage'] })
    const left = await get<CompactCard[]>(later.as, `${CLOSED}?limit=200`)
    assert.ok(!left.some((c) => ids.includes(c.id)))
    assert.deepEqual((await get<CompactBoard>(later.as, COMPACT)).closed, { done: 0, declined: 0 })
  })
})
