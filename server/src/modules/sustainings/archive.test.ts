import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { parse } from 'csv-parse/sync'
import { ARCHIVE_CSV_COLUMNS, type Proposal } from '@stake/contract'
import { signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { expectError, locs } from '../../test/callings.fixtures.ts'
import { bishopOf, createWard, move, submit } from '../../test/proposals.fixtures.ts'
import { atSustain, present, PROPOSALS, type As } from '../../test/sustainings.fixtures.ts'

describe('archive: list filters and proposals.csv (docs/api-reference.md §12)', () => {
  const t = useTestApp()
  let wardA: number
  let wardB: number
  let wardBName: string
  let manager: As
  let bishopB: As
  let done: Proposal
  let tricky: Proposal
  let declined: Proposal
  let otherWard: Proposal

  const finish = async (p: Proposal) => {
    let stage = p.stage
    while (stage !== 'done') stage = (await move(manager, p.id, 'advance', stage)).stage
  }
  const setChanged = (id: number, at: string) =>
    t.database.db.updateTable('proposals').set({ stage_changed_at: at }).where('id', '=', id).execute()

  before(async () => {
    wardA = await createWard(t.database.db, 'Alpha Ward')
    wardBName = 'Beta, "B" Ward'
    wardB = await createWard(t.database.db, wardBName)
    manager = (await signedIn(t, { permissions: ['proposals.manage', 'proposals.submit', 'proposals.view'] })).as
    bishopB = (await bishopOf(t, wardB)).as

    done = await atSustain(manager, wardA, {
      scope: 'stake',
      fname: 'Ana',
      lname: 'Núñez',
      proposed_calling: 'Stake clerk',
    })
    await present(manager, done.id, { ward_id: wardB, date: '2026-03-01' })
    await present(manager, done.id, { ward_id: wardA, date: '2026-03-08' })
    await finish({ ...done, stage: 'set_apart' })
    await setChanged(done.id, '2026-03-10T10:00:00.000Z')

    tricky = await submit(manager, wardA, {
      fname: '=HYPERLINK("x")',
      lname: '+1',
      proposed_calling: '@home, "quoted"\nline',
    })
    await manager('POST', `${PROPOSALS}/${tricky.id}/decline`, { reason: 'No' })
    await setChanged(tricky.id, '2026-03-20T23:59:59.000Z')

    declined = await submit(manager, wardA, { fname: '-minus', lname: 'Person' })
    await manager('POST', `${PROPOSALS}/${declined.id}/decline`, { reason: 'No' })
    await setChanged(declined.id, '2026-04-02T00:00:00.000Z')

    otherWard = await atSustain(manager, wardB)
    await finish(otherWard)
    await setChanged(otherWard.id, '2026-03-15T00:00:00.000Z')
  })

  const listIds = async (as: As, query: string): Promise<number[]> => {
    const res = await as('GET', `${PROPOSALS}?${query}`)
    assert.equal(res.statusCode, 200, res.body)
    return (res.json() as Proposal[]).map((p) => p.id).sort((a, b) => a - b)
  }
  const csv = async (as: As, query = '') => {
    const res = await as('GET', `${PROPOSALS}.csv?${query}`)
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8')
    const records: string[][] = parse(res.body, { relax_column_count: false })
    return { body: res.body, header: records[0]!, rows: records.slice(1) }
  }

  it('filters the list by stage and by from/to on stage_changed_at (whole days)', async () => {
    assert.deepEqual(
      await listIds(manager, 'stage=done'),
      [done.id, otherWard.id].sort((a, b) => a - b),
    )
    assert.deepEqual(
      await listIds(manager, 'stage=declined'),
      [tricky.id, declined.id].sort((a, b) => a - b),
    )
    assert.deepEqual(await listIds(manager, 'stage=declined&from=2026-03-01&to=2026-03-20'), [tricky.id])
    assert.deepEqual(
      await listIds(manager, 'from=2026-03-11&to=2026-03-31'),
      [tricky.id, otherWard.id].sort((a, b) => a - b),
    )
    assert.deepEqual(await listIds(manager, 'from=2026-04-02&stage=declined'), [declined.id])
    assert.deepEqual(await listIds(manager, 'calling=STAKE%20CL'), [done.id])
    assert.deepEqual(locs(await manager('GET', `${PROPOSALS}?from=2026-02-30`)), ['query.from'])
    assert.deepEqual(locs(await manager('GET', `${PROPOSALS}?to=yesterday`)), ['query.to'])
  })

  it('answers RFC 4180 CSV with the contract columns that parses back to the same values', async () => {
    const { body, header, rows } = await csv(manager, 'from=2026-03-01&to=2026-03-31&ward_id=' + wardA)
    assert.deepEqual(header, [...ARCHIVE_CSV_COLUMNS])
    assert.ok(body.includes('\r\n'), 'CRLF line ends')
    const byId = new Map(rows.map((r) => [Number(r[0]), Object.fromEntries(header.map((h, i) => [h, r[i]]))]))
    assert.deepEqual(
      [...byId.keys()].sort((a, b) => a - b),
      [done.id, tricky.id].sort((a, b) => a - b),
    )
    const d = byId.get(done.id)!
    assert.equal(d.lname, 'Núñez')
    assert.equal(d.ward, 'Alpha Ward')
    assert.equal(d.scope, 'stake')
    assert.equal(d.is_release, 'false')
    assert.equal(d.stage, 'done')
    assert.equal(d.stage_changed_at, '2026-03-10T10:00:00.000Z')
    assert.equal(d.presented_in, `Alpha Ward;${wardBName}`)
    const x = byId.get(tricky.id)!
    assert.equal(x.fname, `'=HYPERLINK("x")`)
    assert.equal(x.lname, "'+1")
    assert.equal(x.proposed_calling, `'@home, "quoted"\nline`)
    assert.equal(x.stage, 'declined')
    assert.equal(x.presented_in, '')
  })

  it("prefixes '-' too, and holds every row without paging", async () => {
    assert.deepEqual(
      (await csv(manager, 'calling=stake clerk')).rows.map((r) => Number(r[0])),
      [done.id],
    )
    const { rows } = await csv(manager, 'stage=declined')
    assert.ok(rows.some((r) => r[1] === "'-minus"))
    const all = await csv(manager)
    const total = Number((await manager('GET', `${PROPOSALS}?limit=1`)).headers['x-total-count'])
    assert.equal(all.rows.length, total)
  })

  it('follows the list visibility: a bishop gets only what he may see', async () => {
    const mine = await csv(bishopB)
    const ids = mine.rows.map((r) => Number(r[0])).sort((a, b) => a - b)
    // otherWard is his ward's; done is a stake-scope proposal past sustain (every bishop's).
    assert.deepEqual(
      ids,
      [done.id, otherWard.id].sort((a, b) => a - b),
    )
    expectError(await t.app.inject({ method: 'GET', url: `${PROPOSALS}.csv` }), 401)
    assert.deepEqual(locs(await manager('GET', `${PROPOSALS}.csv?from=2026-13-01`)), ['query.from'])
  })
})
