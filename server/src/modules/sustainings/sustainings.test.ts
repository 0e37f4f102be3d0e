import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { Proposal, Sustainings } from '@stake/contract'
import { signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { bishopOf, createWard, getProposal, move, seated, submit } from '../../test/proposals.fixtures.ts'
import { kindsAbout } from '../../test/notifications.fixtures.ts'
import { expectError, locs } from '../../test/callings.fixtures.ts'
import { allWards, atSustain, present, PROPOSALS, type As } from '../../test/sustainings.fixtures.ts'

describe('sustainings (docs/api-reference.md §12)', () => {
  const t = useTestApp({ STAKE_TIMEZONE: 'Pacific/Kiritimati' })
  let wardA: number
  let wardB: number
  let manager: Awaited<ReturnType<typeof signedIn>>
  let bishopA: Awaited<ReturnType<typeof signedIn>>
  let bishopB: Awaited<ReturnType<typeof signedIn>>
  let hc: Awaited<ReturnType<typeof signedIn>>
  let member: Awaited<ReturnType<typeof signedIn>>

  before(async () => {
    wardA = await createWard(t.database.db)
    wardB = await createWard(t.database.db)
    manager = await signedIn(t, { permissions: ['proposals.manage', 'proposals.submit', 'proposals.view'] })
    bishopA = await bishopOf(t, wardA)
    bishopB = await bishopOf(t, wardB)
    hc = await seated(t, 'high_councilor')
    member = await signedIn(t, { permissions: ['proposals.submit'] })
  })

  const list = async (as: As, wardId: number): Promise<Sustainings> => {
    const res = await as('GET', `/api/sustainings/${wardId}`)
    assert.equal(res.statusCode, 200, res.body)
    return res.json()
  }
  const ids = (s: Sustainings) => s.items.map((i) => i.proposal.id)

  describe('proposal fields', () => {
    it('defaults scope to ward, releases to [], links to null, presented_in to []', async () => {
      const p = await submit(manager.as, wardA)
      assert.equal(p.scope, 'ward')
      assert.deepEqual(p.releases, [])
      assert.equal(p.calling_id, null)
      assert.equal(p.user_id, null)
      assert.deepEqual(p.presented_in, [])
    })

    it('stores scope, releases and links, and a PUT without them keeps them', async () => {
      const calling = (await t.database.db.selectFrom('callings').select('id').executeTakeFirstOrThrow()).id
      const releases = [
        { fname: ' Ann ', lname: 'Lee', calling: 'Primary teacher', calling_id: calling, user_id: member.user.id },
      ]
      const p = await submit(manager.as, wardA, {
        scope: 'stake',
        releases,
        calling_id: calling,
        user_id: member.user.id,
      })
      assert.equal(p.scope, 'stake')
      assert.deepEqual(p.releases, [{ ...releases[0], fname: 'Ann' }])
      assert.equal(p.calling_id, calling)
      assert.equal(p.user_id, member.user.id)
      const put = await manager.as('PUT', `${PROPOSALS}/${p.id}`, {
        fname: p.fname,
        lname: p.lname,
        proposed_calling: p.proposed_calling,
        ward_id: wardA,
      })
      assert.equal(put.statusCode, 200, put.body)
      assert.equal(put.json().scope, 'stake')
      assert.equal(put.json().releases.length, 1)
      assert.equal(put.json().calling_id, calling)
      const cleared = await manager.as('PUT', `${PROPOSALS}/${p.id}`, {
        fname: p.fname,
        lname: p.lname,
        proposed_calling: p.proposed_calling,
        ward_id: wardA,
        scope: 'ward',
        releases: [],
        calling_id: null,
        user_id: null,
      })
      assert.equal(cleared.statusCode, 200, cleared.body)
      assert.deepEqual(
        [cleared.json().scope, cleared.json().releases, cleared.json().calling_id, cleared.json().user_id],
        ['ward', [], null, null],
      )
    })

    it('returns 422 for an unknown calling or user, listing every field', async () => {
      const res = await manager.as('POST', PROPOSALS, {
        fname: 'A',
        lname: 'B',
        proposed_calling: 'C',
        ward_id: wardA,
        calling_id: 999999,
        user_id: 999998,
        releases: [{ fname: 'X', lname: 'Y', calling: 'Z', calling_id: 999997, user_id: 999996 }],
      })
      assert.deepEqual(locs(res).sort(), [
        'body.calling_id',
        'body.releases.0.calling_id',
        'body.releases.0.user_id',
        'body.user_id',
      ])
      const bad = await manager.as('POST', PROPOSALS, {
        fname: 'A',
        lname: 'B',
        proposed_calling: 'C',
        ward_id: wardA,
        scope: 'region',
      })
      assert.equal(bad.statusCode, 422)
    })
  })

  describe('GET /sustainings/{ward_id}', () => {
    it("lists the ward's own proposals at sustain and stake ones not yet presented there, to its bishop", async () => {
      const own = await atSustain(manager.as, wardA)
      const other = await atSustain(manager.as, wardB)
      const stake = await atSustain(manager.as, wardB, { scope: 'stake' })
      const early = await submit(manager.as, wardA)
      const a = ids(await list(bishopA.as, wardA))
      assert.ok(a.includes(own.id))
      assert.ok(a.includes(stake.id), 'a stake proposal of another ward is presented here too')
      assert.ok(!a.includes(other.id))
      assert.ok(!a.includes(early.id))
      const body = await list(bishopA.as, wardA)
      assert.equal(body.ward.id, wardA)
      const item = body.items.find((i) => i.proposal.id === own.id)!
      assert.deepEqual(item.releases, [])
    })

    it("returns 403 to another ward's bishop and a plain member, 404 for an unknown ward", async () => {
      expectError(await bishopB.as('GET', `/api/sustainings/${wardA}`), 403, 'forbidden')
      expectError(await member.as('GET', `/api/sustainings/${wardA}`), 403, 'forbidden')
      expectError(await manager.as('GET', '/api/sustainings/999999'), 404, 'not_found')
      expectError(await t.app.inject({ method: 'GET', url: `/api/sustainings/${wardA}` }), 401)
    })

    it('lets proposals.view (a high councilor) and proposals.manage read any ward', async () => {
      const own = await atSustain(manager.as, wardB)
      assert.ok(ids(await list(hc.as, wardB)).includes(own.id))
      assert.ok(ids(await list(manager.as, wardB)).includes(own.id))
    })
  })

  describe('the script', () => {
    it('is text/html with releases first, then calls, every name escaped', async () => {
      const ward = await createWard(t.database.db)
      await atSustain(manager.as, ward, {
        fname: '<script>alert(1)</script>',
        lname: 'O\'Neil & "Sons"',
        proposed_calling: 'Ward clerk',
        releases: [{ fname: 'Rel', lname: 'Eased', calling: 'Ward <b>clerk</b>' }],
      })
      const res = await manager.as('GET', `/api/sustainings/${ward}/script?lang=en`)
      assert.equal(res.statusCode, 200, res.body)
      assert.match(res.headers['content-type'] as string, /^text\/html; charset=utf-8/)
      assert.match(res.headers['content-security-policy'] as string, /default-src 'none'/)
      const html = res.body
      assert.ok(!html.includes('<script>'), 'no raw script tag')
      assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'))
      assert.ok(html.includes('O&#39;Neil &amp; &quot;Sons&quot;'))
      assert.ok(html.includes('Ward &lt;b&gt;clerk&lt;/b&gt;'))
      assert.ok(html.indexOf('Releases') < html.indexOf('Callings'), 'releases come first')
      assert.ok(html.indexOf('Rel Eased') < html.indexOf('alert(1)'))
      assert.match(html, /@page/)
    })

    it('speaks Spanish with lang=es, and the caller’s language by default', async () => {
      const ward = await createWard(t.database.db)
      await atSustain(manager.as, ward, { proposed_calling: 'Maestro' })
      const es = await manager.as('GET', `/api/sustainings/${ward}/script?lang=es`)
      assert.equal(es.statusCode, 200)
      assert.match(es.body, /Llamamientos/)
      assert.match(es.body, /lang="es"/)
      const byDefault = await manager.as('GET', `/api/sustainings/${ward}/script`)
      assert.match(byDefault.body, /Callings/)
      expectError(await manager.as('GET', `/api/sustainings/${ward}/script?lang=fr`), 422)
      expectError(await bishopB.as('GET', `/api/sustainings/${ward}/script`), 403)
    })
  })

  describe('POST …/presented', () => {
    it('moves a ward-scope call to set_apart and a release to record', async () => {
      const call = await atSustain(manager.as, wardA)
      const res = await present(bishopA.as, call.id, { ward_id: wardA, date: '2026-03-01' })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().stage, 'set_apart')
      assert.deepEqual(res.json().presented_in, [{ ward_id: wardA, at: '2026-03-01' }])
      const release = await atSustain(manager.as, wardA, { is_release: true })
      const released = await present(manager.as, release.id, { ward_id: wardA })
      assert.equal(released.json().stage, 'record')
    })

    it('dates it today in the stake time zone by default', async () => {
      // The test clock reads 2026-03-01T12:00Z: already the 2nd at UTC+14.
      assert.equal(t.clock.iso().slice(0, 10), '2026-03-01')
      const call = await atSustain(manager.as, wardA)
      const res = await present(bishopA.as, call.id, { ward_id: wardA })
      assert.deepEqual(res.json().presented_in, [{ ward_id: wardA, at: '2026-03-02' }])
    })

    it('returns 422 for a ward-scope proposal in another ward, an unknown ward or a bad date', async () => {
      const call = await atSustain(manager.as, wardA)
      expectError(await present(manager.as, call.id, { ward_id: wardB }), 422)
      assert.deepEqual(locs(await present(manager.as, call.id, { ward_id: 999999 })), ['body.ward_id'])
      assert.deepEqual(locs(await present(manager.as, call.id, { ward_id: wardA, date: '2026-02-30' })), ['body.date'])
      assert.deepEqual(locs(await present(manager.as, call.id, { ward_id: wardA, date: '1/3/2026' })), ['body.date'])
      assert.equal((await getProposal(manager.as, call.id)).stage, 'sustain')
    })

    it('returns 409 wrong_stage off sustain and already_presented the second time in a ward', async () => {
      const early = await submit(manager.as, wardA)
      expectError(await present(manager.as, early.id, { ward_id: wardA }), 409, 'wrong_stage')
      const stake = await atSustain(manager.as, wardA, { scope: 'stake' })
      assert.equal((await present(bishopB.as, stake.id, { ward_id: wardB })).statusCode, 200)
      expectError(await present(bishopB.as, stake.id, { ward_id: wardB }), 409, 'already_presented')
    })

    it("refuses another ward's bishop and proposals.view alone (403), and hides what they cannot see (404)", async () => {
      const call = await atSustain(manager.as, wardA)
      expectError(await present(hc.as, call.id, { ward_id: wardA }), 403, 'forbidden')
      const stake = await atSustain(manager.as, wardA, { scope: 'stake' })
      expectError(await present(bishopB.as, stake.id, { ward_id: wardA }), 403, 'forbidden')
      // A ward-scope proposal of ward A is invisible to ward B's bishop.
      expectError(await present(bishopB.as, call.id, { ward_id: wardB }), 404, 'not_found')
      assert.equal((await getProposal(manager.as, call.id)).stage, 'sustain')
    })

    it('moves a stake-scope proposal on only once every ward that exists has presented it', async () => {
      const stake = await atSustain(manager.as, wardA, { scope: 'stake' })
      const wards = await allWards(t)
      assert.ok(wards.length >= 3)
      for (const [i, w] of wards.entries()) {
        const res = await present(manager.as, stake.id, { ward_id: w.id })
        assert.equal(res.statusCode, 200, res.body)
        const body: Proposal = res.json()
        assert.equal(body.presented_in.length, i + 1)
        assert.equal(body.stage, i === wards.length - 1 ? 'set_apart' : 'sustain')
        if (i < wards.length - 1) assert.ok(!ids(await list(manager.as, w.id)).includes(stake.id))
      }
      const history = await manager.as('GET', `${PROPOSALS}/${stake.id}/history`)
      assert.equal(history.json().filter((h: { from_stage: string }) => h.from_stage === 'sustain').length, 1)
    })

    it("tells the submitter stage_changed when the last ward's presentation moves a stake-scope proposal on", async () => {
      const p = await submit(member.as, wardA, { scope: 'stake' })
      let stage = p.stage
      while (stage !== 'sustain') stage = (await move(manager.as, p.id, 'advance', stage)).stage
      const told = async () => (await kindsAbout(member.as, p.id)).filter((k) => k === 'stage_changed').length
      const before = await told()
      for (const w of await allWards(t))
        assert.equal((await present(manager.as, p.id, { ward_id: w.id })).statusCode, 200)
      assert.equal((await getProposal(manager.as, p.id)).stage, 'set_apart')
      assert.equal(await told(), before + 1)
    })

    it('counts the wards that exist at each presentation', async () => {
      const stake = await atSustain(manager.as, wardA, { scope: 'stake' })
      const before = await allWards(t)
      for (const w of before.slice(0, -1))
        assert.equal((await present(manager.as, stake.id, { ward_id: w.id })).statusCode, 200)
      const late = await createWard(t.database.db) // a new ward must present it too
      assert.equal((await present(manager.as, stake.id, { ward_id: before.at(-1)!.id })).json().stage, 'sustain')
      assert.equal((await present(manager.as, stake.id, { ward_id: late })).json().stage, 'set_apart')
    })

    it('lets a manager advance a stake-scope proposal that has not been presented everywhere', async () => {
      const stake = await atSustain(manager.as, wardA, { scope: 'stake' })
      await present(bishopA.as, stake.id, { ward_id: wardA })
      const res = await manager.as('POST', `${PROPOSALS}/${stake.id}/advance?from_stage=sustain`)
      assert.equal(res.json().stage, 'set_apart')
    })
  })

  describe('visibility (docs/api-reference.md §12 with docs/api-reference.md §7, S9)', () => {
    it('shows a stake-scope proposal from sustain on to every bishop, and nothing else of other wards', async () => {
      const stakeEarly = await submit(manager.as, wardA, { scope: 'stake' })
      const stake = await atSustain(manager.as, wardA, { scope: 'stake' })
      const ward = await atSustain(manager.as, wardA)
      expectError(await bishopB.as('GET', `${PROPOSALS}/${stakeEarly.id}`), 404)
      expectError(await bishopB.as('GET', `${PROPOSALS}/${ward.id}`), 404)
      assert.equal((await bishopB.as('GET', `${PROPOSALS}/${stake.id}`)).statusCode, 200)
      const listed = (await bishopB.as('GET', `${PROPOSALS}?limit=200`)).json() as Proposal[]
      assert.ok(listed.some((p) => p.id === stake.id))
      assert.ok(!listed.some((p) => p.id === ward.id || p.id === stakeEarly.id))
      // A member who is no bishop still sees nothing of it.
      expectError(await member.as('GET', `${PROPOSALS}/${stake.id}`), 404)
    })
  })
})
