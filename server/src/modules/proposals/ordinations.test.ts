import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { Actions, HistoryEntry, Notification, Proposal } from '@stake/contract'
import { signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { createWard, getProposal, move, submit, tracker, type Tracker } from '../../test/proposals.fixtures.ts'

const URL = '/api/calling-kanban/proposals'

type User = Awaited<ReturnType<typeof signedIn>>

/** docs/api-reference.md §18: ordinations, their path and everything that knows it. */
describe('ordinations', () => {
  const t = useTestApp()
  let { ward, bishop, clerk, sp, hcs } = {} as Tracker
  before(async () => ({ ward, bishop, clerk, sp, hcs } = await tracker(t)))

  const post = (as: User['as'], id: number, path: string, body?: unknown) => as('POST', `${URL}/${id}/${path}`, body)
  const ok = async <R extends { statusCode: number; body: string }>(res: Promise<R>, status = 200): Promise<R> => {
    const r = await res
    assert.equal(r.statusCode, status, r.body)
    return r
  }
  /** The user's notifications about one proposal, oldest first, as `kind: text`. */
  const inbox = async (user: User, proposalId: number): Promise<string[]> => {
    const res = await user.as('GET', '/api/notifications?limit=200')
    assert.equal(res.statusCode, 200, res.body)
    return (res.json() as Notification[])
      .filter((n) => n.proposal_id === proposalId)
      .reverse()
      .map((n) => `${n.kind}: ${n.text}`)
  }
  const actionsOf = async (user: User): Promise<Actions> => (await ok(user.as('GET', '/api/actions'))).json() as never

  const ordination = (office: 'elder' | 'high_priest' = 'elder') => ({
    kind: 'ordination' as const,
    office,
    proposed_calling: office === 'elder' ? 'Elder' : 'High priest',
  })

  it('takes an ordination from the bishop to done along its own path, notifying the right people', async () => {
    const p = await submit(bishop.as, ward, { ...ordination(), fname: 'Samuel', lname: 'Ordo' })
    assert.equal(p.kind, 'ordination')
    assert.equal(p.office, 'elder')
    assert.equal(p.is_release, false)
    assert.equal(p.stage, 'sp_approval')
    for (const member of [sp.president, sp.first, sp.second])
      assert.deepEqual(await inbox(member, p.id), [
        'vote_needed: Your vote is needed: Samuel Ordo to be ordained an elder (stake presidency approval).',
      ])
    // S9: the high council does not see it at sp_approval.
    assert.equal((await hcs[0]!.as('GET', `${URL}/${p.id}`)).statusCode, 404)

    await ok(post(sp.president.as, p.id, 'approvals?approved=true'), 201)
    await ok(post(sp.first.as, p.id, 'approvals?approved=true'), 201)
    const atInterview = await getProposal(bishop.as, p.id)
    assert.equal(atInterview.stage, 'interview')
    assert.deepEqual(await inbox(bishop, p.id), [
      'stage_changed: Samuel Ordo to be ordained an elder moved to interview.',
    ])
    // The interview comes before the high council's vote: still the presidency's (S9).
    assert.equal((await hcs[0]!.as('GET', `${URL}/${p.id}`)).statusCode, 404)
    assert.deepEqual(await inbox(hcs[0]!, p.id), [])
    const assign = (await actionsOf(clerk)).items.find((i) => i.proposal.id === p.id)
    assert.equal(assign?.kind, 'assign')
    assert.equal(assign?.proposal.kind, 'ordination')

    // The interviewer is a member of the stake presidency.
    const refused = await post(clerk.as, p.id, `interview?interviewer_id=${hcs[0]!.user.id}`)
    assert.equal(refused.statusCode, 422, refused.body)
    assert.match(refused.body, /stake presidency/)
    await ok(post(clerk.as, p.id, `interview?interviewer_id=${sp.second.user.id}`))
    assert.deepEqual((await inbox(sp.second, p.id)).slice(1), [
      'interview_assigned: You are asked to interview Samuel Ordo to be ordained an elder.',
    ])
    assert.equal((await actionsOf(sp.second)).items.find((i) => i.proposal.id === p.id)?.kind, 'interview')

    await ok(post(sp.second.as, p.id, 'interview/complete'))
    const atHc = await getProposal(bishop.as, p.id)
    assert.equal(atHc.stage, 'hc_approval')
    assert.ok(atHc.interview?.interview_date)
    for (const hc of hcs)
      assert.deepEqual(await inbox(hc, p.id), [
        'vote_needed: Your vote is needed: Samuel Ordo to be ordained an elder (high council approval).',
      ])
    for (const hc of hcs) await ok(post(hc.as, p.id, 'approvals?approved=true'), 201)
    assert.equal((await getProposal(bishop.as, p.id)).stage, 'sustain')
    assert.equal((await actionsOf(clerk)).items.find((i) => i.proposal.id === p.id)?.kind, 'step')

    // The sustaining script, in both languages.
    const en = await ok(bishop.as('GET', `/api/sustainings/${ward}/script?lang=en`))
    assert.match(en.body, /Ordinations to the Melchizedek Priesthood/)
    assert.match(en.body, /Samuel Ordo, to be ordained an elder/)
    const es = await ok(bishop.as('GET', `/api/sustainings/${ward}/script?lang=es`))
    assert.match(es.body, /Samuel Ordo, para ser ordenado élder/)

    await ok(post(clerk.as, p.id, 'presented', { ward_id: ward }))
    const atOrdain = await getProposal(bishop.as, p.id)
    assert.equal(atOrdain.stage, 'ordain')
    assert.equal((await actionsOf(clerk)).items.find((i) => i.proposal.id === p.id)?.kind, 'step')
    // ordain replaces set_apart.
    const setApart = await post(clerk.as, p.id, 'set-apart')
    assert.equal(setApart.statusCode, 409, setApart.body)
    assert.equal(setApart.json().code, 'wrong_stage')
    await ok(post(clerk.as, p.id, 'ordain'))
    await ok(post(clerk.as, p.id, 'record'))
    const done = await getProposal(bishop.as, p.id)
    assert.equal(done.stage, 'done')

    const history = (await (await ok(clerk.as('GET', `${URL}/${p.id}/history`))).json()) as HistoryEntry[]
    assert.deepEqual(
      history.map((h) => `${h.from_stage ?? '-'}>${h.to_stage}`),
      [
        '-',
        'sp_approval>interview',
        'interview>hc_approval',
        'hc_approval>sustain',
        'sustain>ordain',
        'ordain>record',
        'record>done',
      ].map((s, i) => (i === 0 ? '->sp_approval' : s)),
    )
    assert.deepEqual(
      (await inbox(bishop, p.id)).at(-1),
      'stage_changed: Samuel Ordo to be ordained an elder moved to done.',
    )
    const all = await inbox(bishop, p.id)
    assert.ok(all.includes('stage_changed: Samuel Ordo to be ordained an elder moved to ordination.'), all.join('\n'))
  })

  it('reverts along the ordination path: back from hc_approval reopens the interview', async () => {
    const p = await submit(bishop.as, ward, ordination('high_priest'))
    await move(clerk.as, p.id, 'advance', 'sp_approval')
    await ok(post(clerk.as, p.id, `interview?interviewer_id=${sp.president.user.id}`))
    await ok(post(clerk.as, p.id, 'interview/complete'))
    const back = await move(clerk.as, p.id, 'revert', 'hc_approval')
    assert.equal(back.stage, 'interview')
    assert.equal(back.interview?.interviewer_id, sp.president.user.id)
    assert.equal(back.interview?.interview_date, null)
    assert.equal((await move(clerk.as, p.id, 'revert', 'interview')).stage, 'sp_approval')
    assert.equal((await getProposal(clerk.as, p.id)).interview, null)
  })

  it('validates kind and office, and keeps them after submission', async () => {
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await bishop.as('POST', URL, {
        fname: 'A',
        lname: 'B',
        proposed_calling: 'Elder',
        ward_id: ward,
        ...body,
      })
      assert.equal(res.statusCode, 422, `${JSON.stringify(body)}: ${res.body}`)
      assert.match(res.body, new RegExp(field))
    }
    await bad({ kind: 'ordination' }, 'office')
    await bad({ kind: 'ordination', office: null }, 'office')
    await bad({ kind: 'call', office: 'elder' }, 'office')
    await bad({ kind: 'ordination', office: 'deacon' }, 'office')
    await bad({ kind: 'release', is_release: false }, 'is_release')
    await bad({ kind: 'ordination', office: 'elder', is_release: true }, 'is_release')
    await bad({ kind: 'baptism' }, 'kind')

    const release = await submit(bishop.as, ward, { kind: 'release' })
    assert.equal(release.is_release, true)
    assert.equal(release.stage, 'interview')
    const viaFlag = await submit(bishop.as, ward, { is_release: true })
    assert.equal(viaFlag.kind, 'release')
    const call = await submit(bishop.as, ward)
    assert.equal(call.kind, 'call')
    assert.equal(call.office, null)

    const o = await submit(bishop.as, ward, ordination())
    const body = { fname: o.fname, lname: o.lname, proposed_calling: 'Elder', ward_id: ward }
    assert.equal((await bishop.as('PUT', `${URL}/${o.id}`, { ...body, kind: 'call' })).statusCode, 422)
    assert.equal((await bishop.as('PUT', `${URL}/${o.id}`, { ...body, office: 'high_priest' })).statusCode, 422)
    const same = await bishop.as('PUT', `${URL}/${o.id}`, { ...body, kind: 'ordination', office: 'elder' })
    assert.equal(same.statusCode, 200, same.body)
    const kept = await bishop.as('PUT', `${URL}/${o.id}`, { ...body, fname: 'Renamed' })
    assert.equal(kept.statusCode, 200, kept.body)
    assert.equal(kept.json().kind, 'ordination')
    assert.equal(kept.json().office, 'elder')
  })

  it('filters lists, the board and the CSV by kind; the CSV has kind and office columns', async () => {
    const w = await createWard(t.database.db)
    const o = await submit(clerk.as, w, ordination('high_priest'))
    const c = await submit(clerk.as, w)
    const r = await submit(clerk.as, w, { kind: 'release' })

    const list = async (q: string) =>
      ((await ok(clerk.as('GET', `${URL}?ward_id=${w}&${q}`))).json() as Proposal[]).map((p) => p.id).sort()
    assert.deepEqual(await list('kind=ordination'), [o.id])
    assert.deepEqual(await list('kind=call'), [c.id])
    assert.deepEqual(await list('kind=release'), [r.id])
    assert.equal((await clerk.as('GET', `${URL}?kind=nope`)).statusCode, 422)

    const board = (await ok(clerk.as('GET', '/api/calling-kanban/board?kind=ordination'))).json()
    assert.ok(Array.isArray(board.stages.ordain))
    const cards = Object.values(board.stages).flat() as Proposal[]
    assert.ok(cards.every((p) => p.kind === 'ordination'))
    assert.ok(cards.some((p) => p.id === o.id))
    assert.equal((await clerk.as('GET', '/api/calling-kanban/board?kind=x')).statusCode, 422)

    const csv = (await ok(clerk.as('GET', `/api/calling-kanban/proposals.csv?ward_id=${w}`))).body
    const [header, ...rows] = csv.trim().split('\r\n')
    const columns = header!.split(',')
    assert.ok(columns.includes('kind') && columns.includes('office'))
    const byId = new Map(rows.map((line) => [line.split(',')[0], line.split(',')]))
    const cell = (id: number, column: string) => byId.get(String(id))![columns.indexOf(column)]
    assert.equal(cell(o.id, 'kind'), 'ordination')
    assert.equal(cell(o.id, 'office'), 'high_priest')
    assert.equal(cell(c.id, 'kind'), 'call')
    assert.equal(cell(c.id, 'office'), '')
    assert.equal(cell(r.id, 'kind'), 'release')
    const only = (await ok(clerk.as('GET', `/api/calling-kanban/proposals.csv?ward_id=${w}&kind=ordination`))).body
    assert.equal(only.trim().split('\r\n').length, 2)
  })

  it('reads proposals written before kinds existed as call or release', async () => {
    const { db } = t.database
    const w = await createWard(db)
    const now = new Date().toISOString()
    const base = {
      fname: 'Old',
      lname: 'Row',
      proposed_calling: 'Clerk',
      ward_id: w,
      submitter: clerk.user.id,
      stage_changed_at: now,
      submitted_at: now,
      updated_at: now,
    }
    // Inserted as the rows the migration backfilled: kind from is_release.
    const [rel] = await db
      .insertInto('proposals')
      .values({ ...base, is_release: true, kind: 'release', stage: 'interview' })
      .returning('id')
      .execute()
    const [call] = await db
      .insertInto('proposals')
      .values({ ...base, is_release: false, stage: 'hc_approval' })
      .returning('id')
      .execute()
    assert.equal((await getProposal(clerk.as, rel!.id)).kind, 'release')
    assert.equal((await getProposal(clerk.as, call!.id)).kind, 'call')
    // The database keeps kind and is_release in agreement, and an office only on ordinations.
    await assert.rejects(
      db
        .insertInto('proposals')
        .values({ ...base, is_release: true, kind: 'call', stage: 'interview' })
        .execute(),
    )
    await assert.rejects(
      db
        .insertInto('proposals')
        .values({ ...base, is_release: false, kind: 'ordination', stage: 'sp_approval' })
        .execute(),
    )
  })

  it('keeps the audit log of an ordination at its interview from the high council (S14)', async () => {
    const p = await submit(bishop.as, ward, ordination())
    await move(clerk.as, p.id, 'advance', 'sp_approval')
    const viewer = await signedIn(t, { permissions: ['users.manage', 'proposals.view'] })
    const entries = async (user: User) => {
      const res = await user.as('GET', '/api/audit?limit=200')
      assert.equal(res.statusCode, 200, res.body)
      return (res.json() as { target_type: string; target_id: number | null }[]).filter(
        (e) => e.target_type === 'proposal' && e.target_id === p.id,
      )
    }
    assert.equal((await entries(viewer)).length, 0)
    const manager = await signedIn(t, { permissions: ['users.manage', 'proposals.manage'] })
    assert.ok((await entries(manager)).length >= 2)
    await ok(post(clerk.as, p.id, `interview?interviewer_id=${sp.first.user.id}`))
    await ok(post(clerk.as, p.id, 'interview/complete'))
    assert.ok((await entries(viewer)).length >= 2)
    const seen = await getProposal(hcs[1]!.as, p.id)
    assert.equal(seen.stage, 'hc_approval')
  })
})
