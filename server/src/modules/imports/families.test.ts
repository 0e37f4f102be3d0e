import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { ImportPreview } from '@stake/contract'
import { useTestApp } from '../../test/harness.ts'
import { unique } from '../../test/factories.ts'
import { csv, importerWithWards, postReport, tsv } from '../../test/imports.fixtures.ts'
import { layoutPdf } from '../../test/lcr-layout.fixtures.ts'

/**
 * Report families beyond the shared samples (docs/api-reference.md §15,
 * docs/imports.md), each built here: shifted columns, cells wrapped centred
 * in every column, chrome on every page, rosters, wrapped headers, vacant
 * callings, misread names, counts that disagree, same-name members.
 */
describe('LCR report families (docs/api-reference.md §15)', () => {
  const t = useTestApp()
  const { admin, makeWard } = importerWithWards(t)
  const preview = async (body: string | Buffer, type: string, query = '') => {
    const res = await postReport(t, admin.token, body, type, query)
    assert.equal(res.statusCode, 201, res.body)
    return res.json() as ImportPreview
  }
  const seats = (p: ImportPreview) =>
    p.changes.filter((c) => c.target === 'slot').map((c) => [c.calling, `${c.fname} ${c.lname}`, c.sustained])
  const created = (p: ImportPreview) =>
    p.changes
      .filter((c) => c.target === 'user' && c.action === 'create')
      .map((c) => `${c.fname} ${c.lname}`)
      .sort()

  it('PDF: tables with shifted columns, cells wrapped centred in every column, chrome on every page, a wrong count', async () => {
    const ward = await makeWard()
    const last = unique('Quimby')
    const eq = unique('Elders Quorum Instructor ')
    const pdf = await layoutPdf(
      [
        { heading: 'Bishopric' },
        {
          header: ['Calling', 'Name', 'Sustained', 'Set Apart'],
          xs: [35, 245, 370, 475],
          rows: [
            ['Bishop', `${last}, Orrin`, '3 Mar 2024', 'Yes'],
            ['Bishopric First\nCounselor', `${last},\nAdair Maeve`, '1 Feb 2025', ''],
            ['Ward Clerk', 'Calling Vacant', '', ''],
            ['Ward Assistant\nClerk', `${last}, Bram`, '9 Jan\n2025', 'Yes'],
          ],
        },
        { heading: 'Elders Quorum' },
        { heading: 'Additional Elders Quorum Callings', size: 9 },
        {
          header: ['Calling', 'Name', 'Sustained', 'Set Apart'],
          xs: [35, 200, 330, 430],
          rows: [[eq, `${last}, Hale`, '14 Sep 2025', '']],
          count: 3,
        },
      ],
      { rowsPerPage: 3 },
    )
    const shown = await preview(pdf, 'application/pdf', `ward_id=${ward.id}`)
    assert.deepEqual(seats(shown), [
      ['Bishop', `Orrin ${last}`, '2024-03-03'],
      ['Bishopric First Counselor', `Adair Maeve ${last}`, '2025-02-01'],
      ['Ward Assistant Clerk', `Bram ${last}`, '2025-01-09'],
      [eq, `Hale ${last}`, '2025-09-14'],
    ])
    assert.deepEqual(
      shown.vacant.map((v) => [v.calling, v.organization]),
      [['Ward Clerk', 'Bishopric']],
    )
    assert.deepEqual(
      shown.changes.filter((c) => c.target === 'slot').map((c) => c.organization),
      ['Bishopric', 'Bishopric', 'Bishopric', 'Elders Quorum / Additional Elders Quorum Callings'],
    )
    assert.deepEqual(
      shown.problems.map((p) => p.code),
      ['count_mismatch'],
    )
    assert.match(shown.problems[0]!.message, /Count: 3.*1 row/)
    const reasons = new Map<string, string[]>()
    for (const l of shown.ignored_lines) reasons.set(l.reason, [...(reasons.get(l.reason) ?? []), l.text])
    // The unit lines and the footer of both pages, the headings, the counts.
    assert.equal(reasons.get('copyright')?.length, 2)
    assert.ok((reasons.get('unit') ?? []).includes('Juniper Stake (778899)'))
    assert.deepEqual(reasons.get('count'), ['Count: 4', 'Count: 3'])
    assert.deepEqual(created(shown), [`Adair Maeve ${last}`, `Bram ${last}`, `Hale ${last}`, `Orrin ${last}`])
  })

  it('PDF: a stake report ending with a roster is people, never callings; a wrapped header gives its columns', async () => {
    const last = unique('Pennywhistle')
    const pdf = await layoutPdf(
      [
        { heading: 'Stake Presidency' },
        {
          header: ['Calling', 'Name', 'Sustained', 'Set Apart'],
          xs: [35, 245, 370, 475],
          rows: [['Stake Clerk', `${last}, Cyril`, '2 Feb 2022', 'Yes']],
        },
        { heading: 'Single Adults' },
        {
          header: ['Name', 'Gender', 'Age', 'Birth\nDate', 'Phone\nNumber', 'Email', 'Current\nUnit'],
          xs: [35, 150, 195, 225, 290, 370, 500],
          rows: [
            [`${last},\nAda Lucinda`, 'F', '29', '1 Jan 1997', '555-0142', 'ada@example.org', 'Cedar\nHollow Ward'],
            [`${last}, Bo`, 'M', '31', '2 Feb 1995', '', '', ''],
          ],
        },
      ],
      { title: 'Organizations and Callings', unit: 'Juniper Stake (778899)' },
    )
    const shown = await preview(pdf, 'application/pdf')
    assert.deepEqual(shown.problems, [])
    assert.deepEqual(
      shown.changes.filter((c) => c.target === 'slot').map((c) => c.calling),
      ['Stake Clerk'],
    )
    assert.ok(shown.changes.every((c) => c.target !== 'calling'))
    const ada = shown.changes.find((c) => c.target === 'user' && c.fname === 'Ada Lucinda')!
    assert.deepEqual([ada.lname, ada.email, ada.phone], [last, 'ada@example.org', '555-0142'])
    assert.deepEqual(created(shown), [`Ada Lucinda ${last}`, `Bo ${last}`, `Cyril ${last}`])
    assert.ok(!JSON.stringify(shown).includes('1997'))
  })

  it('a member list whose header labels wrap over two lines (Member List for Callings)', async () => {
    const ward = await makeWard()
    const last = unique('Hollowell')
    const callingName = unique('Ward Librarian ')
    const pdf = await layoutPdf(
      [
        {
          header: ['Preferred\nName', 'Phone\nNumber', 'E-mail', 'Callings'],
          xs: [35, 190, 280, 420],
          rows: [
            [`${last}, Iris`, '555-0177', 'iris@example.org', callingName],
            [`${last},\nTheodora Grace`, '555-0178', '', ''],
          ],
          count: null,
        },
      ],
      { title: 'Member List for Callings' },
    )
    const shown = await preview(pdf, 'application/pdf', `ward_id=${ward.id}`)
    assert.deepEqual(shown.problems, [])
    assert.deepEqual(created(shown), [`Iris ${last}`, `Theodora Grace ${last}`])
    assert.deepEqual(
      shown.changes.filter((c) => c.target === 'user').map((c) => [c.phone, c.email]),
      [
        ['555-0177', 'iris@example.org'],
        ['555-0178', null],
      ],
    )
    assert.deepEqual(
      shown.changes.filter((c) => c.target === 'slot').map((c) => c.calling),
      [callingName],
    )
  })

  it('a date, a phone number, a count or page text in the name column is a problem, never a person', async () => {
    const shown = await preview(
      csv([
        ['Position', 'Name', 'Sustained'],
        ['Elders Quorum Instructor', '14 Sep 2025', ''],
        ['Ward Clerk', '(555) 123-4567', ''],
        ['Ward Organist', '12', ''],
        ['Ward Chorister', 'Printed 13 Sep 2026', ''],
        ['Ward Librarian', 'Valley View Ward (91375)', ''],
      ]),
      'text/csv',
    )
    assert.deepEqual(
      shown.problems.map((p) => [p.row, p.code]),
      [
        [1, 'not_a_name'],
        [2, 'not_a_name'],
        [3, 'not_a_name'],
        [4, 'not_a_name'],
        [5, 'not_a_name'],
      ],
    )
    assert.deepEqual(shown.changes, [])
    assert.equal(shown.summary.skipped, 5)
  })

  it('two members of one name stay two people when their age tells them apart; otherwise it is a problem', async () => {
    const ward = await makeWard()
    const last = unique('Doe')
    const shown = await preview(
      tsv([
        ['Name', 'Gender', 'Age', 'Birth Date', 'Organization', 'Calling', 'Sustained', 'Set Apart'],
        [`${last}, Jane`, 'F', '38', '1 Jan 1988', 'Primary', 'Primary Teacher', '2 Nov 2025', ''],
        [`${last}, Jane`, 'F', '8', '3 Mar 2018', 'Primary', 'Primary Class Helper', '2 Nov 2025', ''],
        [`${last}, Jane`, 'F', '38', '1 Jan 1988', 'Primary', 'Nursery Leader', '9 Feb 2026', ''],
      ]),
      'text/plain',
      `ward_id=${ward.id}`,
    )
    assert.deepEqual(created(shown), [`Jane ${last}`, `Jane ${last}`])
    const personOf = new Map(shown.changes.filter((c) => c.target === 'slot').map((c) => [c.calling, c.row]))
    assert.deepEqual([...personOf.keys()].sort(), ['Nursery Leader', 'Primary Class Helper', 'Primary Teacher'])
    assert.ok(!JSON.stringify(shown).includes('2018'))

    const list = await preview(
      csv([
        ['Name', 'Phone Number', 'E-mail'],
        [`${last}, Ruth`, '', ''],
        [`${last}, Ruth`, '', ''],
      ]),
      'text/csv',
    )
    assert.deepEqual(
      list.problems.map((p) => [p.row, p.code]),
      [[2, 'same_name']],
    )
    assert.equal(created(list).length, 1)
  })
})
