import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Calling, ImportPreview, User } from '@stake/contract'
import { useTestApp } from '../../test/harness.ts'
import { unique } from '../../test/factories.ts'
import {
  CALLINGS_HEADER,
  csv,
  MEMBER_LIST_HEADER,
  MEMBERS_WITH_CALLINGS_HEADER,
  importerWithWards,
  postReport,
} from '../../test/imports.fixtures.ts'

/**
 * What an import keeps besides people and seats (docs/api-reference.md §15):
 * Set Apart with the seat, the member list's unit as the person's ward, a
 * stake-level report's ward callings in the ward each row names, and imported
 * people as roster entries rather than accounts.
 */
describe('imports: what the stake keeps of a report', () => {
  const t = useTestApp()
  const { admin, makeWard } = importerWithWards(t)
  const preview = async (rows: string[][], query = '') => {
    const res = await postReport(t, admin.token, csv(rows), 'text/csv', query)
    assert.equal(res.statusCode, 201, res.body)
    return res.json() as ImportPreview
  }
  const apply = async (id: number) => {
    const res = await admin.as('POST', `/api/imports/${id}/apply`)
    assert.equal(res.statusCode, 200, res.body)
  }
  const callingNamed = async (name: string): Promise<Calling> =>
    ((await admin.as('GET', `/api/callings?q=${encodeURIComponent(name)}&limit=200`)).json() as Calling[]).find(
      (c) => c.name === name,
    )!
  const usersNamed = async (lname: string): Promise<User[]> =>
    ((await admin.as('GET', `/api/users?q=${encodeURIComponent(lname)}&limit=200`)).json() as User[]).filter(
      (u) => u.lname === lname,
    )
  const slotOf = (c: Calling, fname: string) => c.slots.find((s) => s.user?.fname === fname)

  it('keeps Set Apart with the seat (a date or a mark), shows it on the seat, and clears it with the holder', async () => {
    const ward = await makeWard()
    const last = unique('Setapart')
    const name = unique('Ward Choir Director ')
    const rows = [
      CALLINGS_HEADER,
      ['Music', name, `${last}, Dated`, '3 Sep 2024', '10 Sep 2024'],
      ['Music', name, `${last}, Marked`, '3 Sep 2024', 'Yes'],
      ['Music', name, `${last}, Not`, '3 Sep 2024', 'No'],
    ]
    const shown = await preview(rows, `ward_id=${ward.id}`)
    assert.deepEqual(shown.ignored_columns, [])
    assert.deepEqual(
      shown.changes.filter((c) => c.target === 'slot').map((c) => [c.fname, c.set_apart]),
      [
        ['Dated', '2024-09-10'],
        ['Marked', 'yes'],
        ['Not', null],
      ],
    )
    await apply(shown.id)
    const calling = await callingNamed(name)
    assert.deepEqual(
      ['Dated', 'Marked', 'Not'].map((f) => slotOf(calling, f)?.set_apart),
      ['2024-09-10', 'yes', null],
    )
    // Anonymous callers see no set apart.
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/callings/${calling.id}` })
    if (anonymous.statusCode === 200) {
      assert.ok((anonymous.json() as Calling).slots.every((s) => s.set_apart === null))
    }

    // Again: all unchanged. A report that now tells the third's set apart updates that seat only.
    const again = await preview(rows, `ward_id=${ward.id}`)
    assert.ok(
      again.changes.every((c) => c.action === 'unchanged'),
      JSON.stringify(again.changes),
    )
    const told = await preview(
      [rows[0]!, rows[1]!, rows[2]!, ['Music', name, `${last}, Not`, '3 Sep 2024', '1 Oct 2024']],
      `ward_id=${ward.id}`,
    )
    const update = told.changes.filter((c) => c.action === 'update')
    assert.deepEqual(
      update.map((c) => [c.target, c.fname, c.changes]),
      [['slot', 'Not', { set_apart: { from: null, to: '2024-10-01' } }]],
    )
    assert.deepEqual(told.summary.slots, { fill: 0, update: 1, release: 0, unchanged: 2 })
    await apply(told.id)
    assert.equal(slotOf(await callingNamed(name), 'Not')?.set_apart, '2024-10-01')

    // Releasing the seat clears its set apart; a hand-filled seat has none.
    const dated = slotOf(await callingNamed(name), 'Dated')!
    const holder = dated.user_id!
    assert.equal((await admin.as('DELETE', `/api/callings/${calling.id}/${dated.slot_id}`)).statusCode, 204)
    const refill = await admin.as('PUT', `/api/callings/${calling.id}/${dated.slot_id}`, { user_id: holder })
    assert.equal(refill.statusCode, 200, refill.body)
    assert.equal(refill.json().set_apart, null)
  })

  it("places a member list's people in the ward their unit names; a unit not of the stake places nobody", async () => {
    const ward = await makeWard(unique('Maple Grove '))
    const last = unique('Unitson')
    const header = [...MEMBER_LIST_HEADER, 'Unit']
    const shown = await preview([
      header,
      [`${last}, Ana`, 'F', '30', '1 Jan 1996', '', '', `${ward.name} Ward (1234567)`],
      [`${last}, Ben`, 'M', '30', '1 Jan 1996', '', '', 'Elsewhere Ward (7654321)'],
    ])
    assert.deepEqual(
      shown.changes.filter((c) => c.target === 'user').map((c) => [c.fname, c.ward_id ?? null]),
      [
        ['Ana', ward.id],
        ['Ben', null],
      ],
    )
    await apply(shown.id)
    const byName = new Map((await usersNamed(last)).map((u) => [u.fname, u]))
    assert.equal(byName.get('Ana')!.ward_id, ward.id)
    assert.equal(byName.get('Ben')!.ward_id, null)

    // An existing person the report places in another ward moves there.
    const other = await makeWard()
    const moved = await preview([header, [`${last}, Ana`, 'F', '30', '1 Jan 1996', '', '', other.name]])
    const change = moved.changes.find((c) => c.target === 'user')!
    assert.equal(change.action, 'update')
    assert.deepEqual(change.changes, { ward: { from: ward.name, to: other.name } })
    await apply(moved.id)
    const ana = (await admin.as('GET', `/api/users/${byName.get('Ana')!.id}`)).json() as User
    assert.equal(ana.ward_id, other.id)
  })

  it('a stake-level report seats ward callings in the ward each row names, never as stake callings', async () => {
    const north = await makeWard(unique('North '))
    const south = await makeWard(unique('South '))
    const last = unique('Staker')
    const eq = unique('Elders Quorum President ')
    const hc = unique('Stake Auditor ')
    const header = [...MEMBERS_WITH_CALLINGS_HEADER, 'Unit']
    const shown = await preview([
      header,
      [`${last}, Nils`, 'M', '40', '1 Jan 1986', '', 'Elders Quorum', eq, '1 Jan 2025', '', `${north.name} Ward`],
      [`${last}, Sol`, 'M', '41', '1 Jan 1985', '', 'Elders Quorum', eq, '1 Jan 2025', '', south.name],
      [`${last}, Una`, 'M', '42', '1 Jan 1984', '', 'Elders Quorum', eq, '1 Jan 2025', '', ''],
      [`${last}, Sten`, 'M', '43', '1 Jan 1983', '', 'Stake Presidency', hc, '1 Jan 2025', '', north.name],
    ])
    assert.deepEqual(
      shown.changes.filter((c) => c.target === 'slot').map((c) => [c.fname, c.calling, c.ward_id]),
      [
        ['Nils', eq, north.id],
        ['Sol', eq, south.id],
        ['Sten', hc, null],
      ],
    )
    assert.deepEqual(
      shown.problems.map((p) => [p.row, p.code]),
      [[3, 'needs_ward_name']],
    )
    assert.equal(shown.summary.skipped, 1)
    await apply(shown.id)
    const seats = (await callingNamed(eq)).slots.filter((s) => s.filled)
    assert.deepEqual(seats.map((s) => [s.user?.fname, s.ward_id]).sort(), [
      ['Nils', north.id],
      ['Sol', south.id],
    ])
  })

  it('people imported without an invitation are roster entries, not accounts waiting for a password change', async () => {
    const last = unique('Rosterly')
    const shown = await preview([
      MEMBER_LIST_HEADER,
      [`${last}, Ivy`, 'F', '30', '1 Jan 1996', '', `${last}@example.org`],
    ])
    await apply(shown.id)
    const [ivy] = await usersNamed(last)
    assert.deepEqual([ivy!.roster, ivy!.force_password_reset, ivy!.active], [true, false, true])
    const invited = await admin.as('POST', `/api/users/${ivy!.id}/invite`)
    assert.equal(invited.statusCode, 200, invited.body)
    // Invited but not arrived: still no password.
    assert.equal(((await admin.as('GET', `/api/users/${ivy!.id}`)).json() as User).roster, true)
    const withPassword = await admin.as('POST', '/api/users', {
      email: `${unique('pw')}@example.org`,
      fname: 'Pat',
      lname: last,
      password: 'a-long-passphrase',
    })
    assert.equal(withPassword.statusCode, 201, withPassword.body)
    assert.equal(withPassword.json().roster, false)
  })
})
