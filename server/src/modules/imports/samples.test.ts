import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { before, describe, it } from 'node:test'
import type { ImportPreview, Ward } from '@stake/contract'
import { useTestApp } from '../../test/harness.ts'
import { ALL_PERMISSIONS, signedIn, unique } from '../../test/factories.ts'
import type { As } from '../../test/callings.fixtures.ts'
import { postReport } from '../../test/imports.fixtures.ts'

/**
 * The LCR report samples of fixtures/ (copies of the shared reproductions,
 * every name invented), previewed through HTTP (docs/api-reference.md §15):
 * every true (calling, person) pair, vacant callings as vacant, no invented
 * person, and the page text listed as ignored.
 */
const FIXTURES = path.join(import.meta.dirname, 'fixtures')
const sample = (file: string) => readFileSync(path.join(FIXTURES, file))
const typeOf = (file: string) =>
  file.endsWith('.pdf') ? 'application/pdf' : file.endsWith('.csv') ? 'text/csv' : 'text/plain'

/** Members with Callings: the true pairs of the TSV and of its pasted page. */
const MEMBERS_WITH_CALLINGS: [string, string][] = [
  ['Bishop', 'John Andrew Doe'],
  ['Bishopric First Counselor', 'Samuel Roe'],
  ['Ward Clerk', 'Timothy Lee Poe'],
  ['Primary Teacher', 'Jane Doe'],
  ['Nursery Leader', 'Jane Doe'],
  ['Young Women Secretary', 'Ann Marie Roe'],
  ['Relief Society Compassionate Service Coordinator', 'Raelyn Kay Alley'],
  ['Elders Quorum Instructor', 'Ryan Kirk Bingham Jr.'],
  ['Sunday School President', 'Kim Loe'],
  ['High Councilor', 'Tim Moe'],
  ['Ward Choir Director', 'Jeff Shiflett'],
]

const PDF_MEMBERS_WITH_CALLINGS: [string, string][] = [
  ['Bishop', 'John Andrew Doe'],
  ['Bishopric First Counselor', 'Samuel Roe'],
  ['Bishopric Second Counselor', 'Gideon Hatch'],
  ['Ward Clerk', 'Timothy Lee Poe'],
  ['Ward Executive Secretary', 'Reid Kimball'],
  ['Elders Quorum President', 'Samuel B Woodruff'],
  ['Elders Quorum First Counselor', 'Owen Larkin'],
  ['Elders Quorum Instructor', 'Ryan Kirk Bingham Jr.'],
  ['Relief Society President', 'Miriam Ashby'],
  ['Relief Society Compassionate Service Coordinator', 'Raelyn Kay Alley'],
  ['Relief Society Teacher', 'Wilhelmina Josephine Marguerite Featherstonehaugh'],
  ['Primary Teacher', 'Jane Doe'],
  ['Nursery Leader', 'Jane Doe'],
  ['Young Women Secretary', 'Ann Marie Roe'],
  ['Teachers Quorum First Counselor', 'Owen Draper'],
  ['Temple and Family History Consultant', 'Ruth Ellen Calder'],
  ['Sunday School President', 'Kim Loe'],
  ['Ward Missionary', 'Levi Nordquist'],
  ['Ward Choir Director', 'Jeff Shiflett'],
  ['High Councilor', 'Tim Moe'],
  ['Stake Primary Second Counselor', 'Tessa Vance'],
]

const ORGANIZATIONS_AND_CALLINGS: [string, string][] = [
  ['Bishop', 'John Andrew Doe'],
  ['Bishopric First Counselor', 'Samuel Roe'],
  ['Ward Executive Secretary', 'Reid Kimball'],
  ['Ward Clerk', 'Timothy Lee Poe'],
  ['Elders Quorum President', 'Samuel B Woodruff'],
  ['Elders Quorum First Counselor', 'Owen Larkin'],
  ['Elders Quorum Secretary', 'Ryan Kirk Bingham Jr.'],
  ['Elders Quorum Instructor', 'Gideon Hatch'],
  ['Ministering Interview Coordinator', 'Levi Nordquist'],
  ['Relief Society President', 'Miriam Ashby'],
  ['Relief Society First Counselor', 'Raelyn Kay Alley'],
  ['Relief Society Secretary', 'Ann Marie Roe'],
  ['Primary President', 'Tessa Vance'],
  ['Nursery Leader', 'Jane Doe'],
  ['Nursery Leader', 'Wilhelmina Josephine Marguerite Featherstonehaugh'],
  ['Primary Teacher', 'Ruth Ellen Calder'],
  ['Primary Teacher', 'Jeff Shiflett'],
  ['Ward Temple and Family History Leader', 'Kim Loe'],
  ['Temple and Family History Consultant for Youth and Young Single Adults', 'Owen Draper'],
  ['Ward Choir Director', 'Jeff Shiflett'],
  ['Building Representative', 'Tim Moe'],
]

interface Expected {
  pairs: [string, string][]
  vacant: string[]
  /** Page text that must be listed as ignored (any reason). */
  ignored: string[]
  problems?: string[]
}

const SAMPLES: Record<string, Expected> = {
  '01-members-with-callings.tsv': { pairs: MEMBERS_WITH_CALLINGS, vacant: [], ignored: [] },
  '02-members-with-callings-pasted-page.txt': {
    pairs: MEMBERS_WITH_CALLINGS,
    vacant: [],
    ignored: [
      'Leader and Clerk Resources',
      'Menu',
      'Members with Callings',
      'Privacy Notice',
      '© 2026 by Intellectual Reserve, Inc.',
    ],
  },
  '06-callings-by-org-eq-presidency-lcrtools.csv': {
    pairs: [
      ['Elders Quorum President', 'Samuel B Woodruff'],
      ['Elders Quorum First Counselor', 'Samuel Roe'],
      ['Elders Quorum Secretary', 'Ryan Kirk Bingham Jr.'],
    ],
    vacant: ['Elders Quorum Second Counselor'],
    ignored: [],
  },
  '07-callings-by-org-pasted-page.txt': {
    pairs: [
      ['Bishop', 'John Andrew Doe'],
      ['Bishopric First Counselor', 'Samuel Roe'],
      ['Ward Executive Secretary', 'Timothy Lee Poe'],
      ['Elders Quorum President', 'Samuel B Woodruff'],
      ['Elders Quorum Secretary', 'Ryan Kirk Bingham Jr.'],
      ['Nursery Leader', 'Jane Doe'],
      ['Ward Choir Director', 'Jeff Shiflett'],
    ],
    vacant: ['Bishopric Second Counselor', 'Nursery Leader'],
    ignored: [
      'Callings by Organization',
      'Print',
      'Count: 4',
      'Room: 12',
      'Add Another Nursery Leader',
      '* custom calling',
    ],
  },
  '09-members-with-callings.pdf': {
    pairs: PDF_MEMBERS_WITH_CALLINGS,
    vacant: [],
    ignored: ['Sample Stake (7654321)', 'Maple Grove Ward (1234567)', 'Printed 13 Sep 2026 Page 1 of 2'],
  },
  '10-organizations-and-callings-ward.pdf': {
    pairs: ORGANIZATIONS_AND_CALLINGS,
    vacant: [
      'Bishopric Second Counselor',
      'Ward Assistant Clerk',
      'Elders Quorum Second Counselor',
      'Elders Quorum Instructor',
      'Relief Society Second Counselor',
      'Primary First Counselor',
      'Nursery Leader',
    ],
    ignored: ['Mesa Arizona Salt River Stake (508225)', 'Count: 6', 'Room: 24-26', '* custom calling'],
  },
}

describe('the LCR report samples preview as the reports say (docs/api-reference.md §15)', () => {
  const t = useTestApp()
  let admin: { token: string; as: As }
  before(async () => {
    const a = await signedIn(t, { permissions: ALL_PERMISSIONS })
    admin = { token: a.token, as: a.as }
  })
  const makeWard = async (): Promise<Ward> => {
    const res = await admin.as('POST', '/api/wards/', { name: unique('Ward '), start_time: 600 })
    assert.equal(res.statusCode, 201, res.body)
    return res.json()
  }
  const preview = async (file: string, wardId: number) => {
    const res = await postReport(t, admin.token, sample(file), typeOf(file), `ward_id=${wardId}`)
    assert.equal(res.statusCode, 201, res.body)
    return res.json() as ImportPreview
  }
  const fullName = (c: { fname?: string; lname?: string }) => `${c.fname} ${c.lname}`

  for (const [file, expected] of Object.entries(SAMPLES)) {
    it(`${file}: every true (calling, person) pair, vacant as vacant, nobody invented, page text ignored`, async () => {
      const ward = await makeWard()
      const shown = await preview(file, ward.id)
      assert.equal(shown.kind, 'callings')
      const pairs = shown.changes
        .filter((c) => c.target === 'slot')
        .map((c) => [c.calling!, fullName(c)] as [string, string])
      const skippedPairs = shown.problems.filter((p) => p.code === 'no_free_seat' || p.code === 'needs_ward')
      assert.deepEqual(
        [...pairs].sort(),
        expected.pairs.filter(([calling]) => calling !== 'High Councilor' || skippedPairs.length === 0).sort(),
        JSON.stringify(shown.problems),
      )
      // Every slot is in the chosen ward, or a stake-wide system calling's.
      for (const c of shown.changes.filter((c) => c.target === 'slot')) {
        assert.ok(c.ward_id === ward.id || c.calling === 'High Councilor', `${c.calling} in ${c.ward_id}`)
      }
      // Nobody invented: the people created are exactly the report's.
      const people = new Set(expected.pairs.map(([, who]) => who))
      assert.deepEqual(
        shown.changes
          .filter((c) => c.target === 'user' && c.action === 'create')
          .map(fullName)
          .sort(),
        [...people].sort(),
      )
      assert.deepEqual(shown.vacant.map((v) => v.calling).sort(), [...expected.vacant].sort())
      assert.ok(shown.vacant.every((v) => v.ward_id === ward.id))
      const ignored = shown.ignored_lines.map((l) => l.text)
      for (const text of expected.ignored)
        assert.ok(ignored.includes(text), `${text} not in ${JSON.stringify(ignored)}`)
      // Only seat problems a fresh stake has (High Councilor seats are set by the stake), never a misread.
      assert.deepEqual(
        shown.problems.filter((p) => !['no_free_seat'].includes(p.code)),
        [],
      )
      // Custom callings lose their asterisk; nothing of the page became a calling.
      assert.ok(shown.changes.every((c) => !c.calling?.startsWith('*')))
      // The rows add up: seats and vacancies and rows left out.
      const rows = new Set(shown.changes.filter((c) => c.row !== null && c.target !== 'calling').map((c) => c.row))
      for (const p of shown.problems) if (p.row !== null) rows.add(p.row)
      for (const v of shown.vacant) rows.add(v.row)
      assert.equal(rows.size, shown.rows_total)
    })
  }

  it('applying a callings sample seats the report; importing it again changes nothing', async () => {
    const ward = await makeWard()
    const file = '10-organizations-and-callings-ward.pdf'
    const first = await preview(file, ward.id)
    const applied = await admin.as('POST', `/api/imports/${first.id}/apply`)
    assert.equal(applied.statusCode, 200, applied.body)
    const again = await preview(file, ward.id)
    assert.deepEqual(
      again.changes.filter((c) => c.action !== 'unchanged'),
      [],
    )
    assert.equal(again.changes.filter((c) => c.target === 'slot').length, ORGANIZATIONS_AND_CALLINGS.length)
    assert.equal(again.vacant.length, 7)
  })
})
