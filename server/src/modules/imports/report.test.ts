import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { ValidationFailure } from '../../errors.ts'
import {
  CALLINGS_HEADER,
  csv,
  lcrPdf,
  MEMBER_LIST_HEADER,
  MEMBERS_WITH_CALLINGS_HEADER,
  tsv,
} from '../../test/imports.fixtures.ts'
import { parseDate, splitName } from './names.ts'
import { readReport } from './rows.ts'
import { readDelimited, readTable } from './tables.ts'

/** Reading LCR reports (docs/api-reference.md §15): pure, no database. */
describe('LCR reports: reading the table', () => {
  it('reads "Last, First" and "First Last" names', () => {
    assert.deepEqual(splitName('Quillfeather, Anwen Mae'), { fname: 'Anwen Mae', lname: 'Quillfeather' })
    assert.deepEqual(splitName('  Tobias   Brightwater '), { fname: 'Tobias', lname: 'Brightwater' })
    assert.equal(splitName('Cher'), null)
    assert.equal(splitName(', Nobody'), null)
  })

  it('reads LCR dates and ISO dates, nothing else', () => {
    assert.equal(parseDate('29 Apr 1971'), '1971-04-29')
    assert.equal(parseDate('3 Sep 2024'), '2024-09-03')
    assert.equal(parseDate('2025-01-12'), '2025-01-12')
    assert.equal(parseDate('31 Feb 2020'), null)
    assert.equal(parseDate('04/29/1971'), null)
    assert.equal(parseDate('29 Foo 1971'), null)
  })

  it('recognises a member list with a BOM and CRLF, and reads past gender, age and birth date', async () => {
    const text = csv(
      [
        MEMBER_LIST_HEADER,
        ['Quillfeather, Anwen', 'F', '54', '29 Apr 1971', '555-0101', 'anwen@example.org'],
        ['Brightwater, Tobias', 'M', '33', '2 Jan 1992', '', ''],
      ],
      { bom: true, crlf: true },
    )
    const report = readReport(await readDelimited(text, ','), 'auto')
    assert.equal(report.kind, 'members')
    assert.deepEqual(report.ignored_columns, ['Gender', 'Age', 'Birth Date'])
    assert.deepEqual(report.rows[0], {
      row: 1,
      fname: 'Anwen',
      lname: 'Quillfeather',
      email: 'anwen@example.org',
      phone: '555-0101',
      calling: null,
      organization: null,
      sustained: null,
      set_apart: null,
      unit: null,
      twin: null,
    })
    assert.equal(report.rows[1]!.email, null)
    // Nothing of the ignored columns is kept.
    assert.ok(!JSON.stringify(report).includes('1971'))
    assert.ok(!JSON.stringify(report.rows).includes('"F"'))
  })

  it('takes loose headers: case, spacing, order, extra columns and the other names of a column', () => {
    const table = [
      ['Report of callings'],
      ['  POSITION ', 'organizations', 'Extra', 'name', 'Date  Sustained'],
      ['Ward Clerk', 'Bishopric', 'x', 'Ashgrove, Pell', '1 Mar 2023'],
    ]
    const report = readReport(table, 'auto')
    assert.equal(report.kind, 'callings')
    assert.deepEqual(report.ignored_columns, ['Extra'])
    assert.equal(report.rows[0]!.calling, 'Ward Clerk')
    assert.equal(report.rows[0]!.organization, 'Bishopric')
    assert.equal(report.rows[0]!.sustained, '2023-03-01')
    const email = readReport(
      [
        ['NAME', 'e-mail'],
        ['Pell Ashgrove', 'p@example.org'],
      ],
      'auto',
    )
    assert.equal(email.rows[0]!.email, 'p@example.org')
  })

  it('refuses an unknown header with the expected columns, and a report of the other kind', () => {
    const refused = (fn: () => unknown, pattern: RegExp) =>
      assert.throws(fn, (e: unknown) => e instanceof ValidationFailure && pattern.test(e.errors[0]!.msg))
    refused(
      () =>
        readReport(
          [
            ['Foo', 'Bar'],
            ['1', '2'],
          ],
          'auto',
        ),
      /Calling.*E-mail/,
    )
    refused(() => readReport([MEMBER_LIST_HEADER], 'callings'), /not a callings report/)
  })

  it('lists row problems instead of failing: no name, a bad name, a bad email, a bad date', () => {
    const report = readReport(
      [
        CALLINGS_HEADER,
        ['Primary', 'Teacher', '', '', ''], // a vacant calling: not a problem
        ['Primary', 'Teacher', 'Mononym', '', ''],
        ['Primary', 'Pianist', 'Ashgrove, Pell', 'someday', ''],
        ['', '', '', '', 'x'],
      ],
      'auto',
    )
    assert.deepEqual(
      report.problems.map((p) => [p.row, p.code]),
      [
        [2, 'invalid_name'],
        [3, 'invalid_date'],
        [4, 'missing_name'],
      ],
    )
    assert.equal(report.rows.length, 1)
    assert.equal(report.rows[0]!.sustained, null)
    assert.equal(report.skipped, 2)
  })

  it('refuses malformed text and PDFs with a 422, not a crash', async () => {
    await assert.rejects(readTable(Buffer.from('Name,Email\n"unclosed,x\n'), 'text/csv'), ValidationFailure)
    await assert.rejects(readTable(Buffer.from('%PDF-1.7 garbage'), 'application/pdf'), ValidationFailure)
    await assert.rejects(readTable(Buffer.alloc(0), 'text/plain'), ValidationFailure)
  })

  it('rebuilds the rows of a PDF report from the text positions, over pages', async () => {
    const rows = Array.from({ length: 95 }, (_, i) => [
      `Person${i}`,
      'F',
      String(20 + (i % 50)),
      '29 Apr 1971',
      `555-01${String(i).padStart(2, '0')}`,
      i % 2 ? 'Relief Society' : 'Primary',
      i % 2 ? 'Teacher' : 'Music Leader',
      '3 Sep 2024',
      'Yes',
    ])
    rows.forEach((r, i) => (r[0] = `Zephyrine${i}, Odalys Mae`))
    const pdf = await lcrPdf('Members with Callings', MEMBERS_WITH_CALLINGS_HEADER, rows, { rowsPerPage: 30 })
    const report = readReport(await readTable(pdf, 'application/pdf'), 'auto')
    assert.equal(report.kind, 'callings')
    assert.deepEqual(report.ignored_columns, ['Gender', 'Age', 'Birth Date'])
    assert.equal(report.rows.length, 95)
    assert.deepEqual(report.problems, [])
    assert.deepEqual(report.rows[94], {
      row: 95,
      fname: 'Odalys Mae',
      lname: 'Zephyrine94',
      email: null,
      phone: '555-0194',
      calling: 'Music Leader',
      organization: 'Primary',
      sustained: '2024-09-03',
      set_apart: 'yes',
      unit: null,
      twin: null,
    })
  })

  it('reads a tab-separated paste (text/plain) as the same rows as the CSV', async () => {
    const rows = [CALLINGS_HEADER, ['Elders Quorum', 'Elders Quorum President', 'Ashgrove, Pell', '1 Mar 2023', 'Yes']]
    const a = readReport(await readTable(Buffer.from(tsv(rows)), 'text/plain'), 'auto')
    const b = readReport(await readTable(Buffer.from(csv(rows)), 'text/plain'), 'auto')
    assert.deepEqual(a, b)
  })

  it('property: any cell text (commas, quotes, line breaks, HTML, formula characters, accents) comes back as that text', async () => {
    const chars = fc.constantFrom(...'aZé ñÖ,;"\'<>&=+-@\t\n\r/\\%$#()[]{}漢字'.split(''), 'x', 'y')
    const cell = fc.array(chars, { minLength: 1, maxLength: 30 }).map((a) => a.join(''))
    const normal = (s: string) => s.replace(/\s+/g, ' ').trim()
    const part = cell.filter((s) => normal(s) !== '' && !s.includes(',') && normal(s).length <= 100)
    await fc.assert(
      fc.asyncProperty(part, part, cell, cell, fc.boolean(), async (first, last, phone, calling, asTsv) => {
        fc.pre(normal(phone).length <= 50 && normal(calling).length <= 100 && normal(calling) !== '')
        const name = `${last}, ${first}`
        const table = [
          ['Name', 'Phone', 'Calling'],
          [name, phone, calling],
        ]
        const text = asTsv ? tsv(table) : csv(table, { crlf: true, bom: true })
        const report = readReport(await readDelimited(text, asTsv ? '\t' : ','), 'auto')
        assert.equal(report.rows.length, 1, JSON.stringify(report.problems))
        const row = report.rows[0]!
        assert.equal(row.lname, normal(last))
        assert.equal(row.fname, normal(first))
        assert.equal(row.phone, normal(phone) || null)
        assert.equal(row.calling, normal(calling))
      }),
      { numRuns: 400 },
    )
  })
})
