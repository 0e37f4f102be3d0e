/** The wizard's row summary, possible matches and problem sentences (run with `npm run test:unit -w web`). */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import type { ImportChange, ImportPreview } from '../../api/types.ts'
import { problemSentence } from './problemText.ts'
import { besidesRows, possibleMatches, rowCounts } from './rowSummary.ts'

const seat = (row: number, action: ImportChange['action'], extra: Partial<ImportChange> = {}): ImportChange => ({
  row,
  target: 'slot',
  action,
  calling: 'Elders Quorum President',
  fname: 'Sam',
  lname: 'Woodruff',
  ...extra,
})
const user = (row: number, action: ImportChange['action'], extra: Partial<ImportChange> = {}): ImportChange => ({
  row,
  target: 'user',
  action,
  fname: 'Samuel B',
  lname: 'Woodruff',
  ...extra,
})

/** A 9-row callings report: 2 vacant, a match to answer, a fill, a replacement, a kept seat, 2 left out, a repeat. */
const shown: Pick<ImportPreview, 'changes' | 'problems' | 'vacant' | 'rows_total' | 'kind'> = {
  kind: 'callings',
  rows_total: 9,
  vacant: [
    { row: 3, calling: 'Bishopric Second Counselor', organization: 'Bishopric', ward_id: 1 },
    { row: 7, calling: 'Nursery Leader', organization: 'Primary', ward_id: 1 },
  ],
  changes: [
    user(1, 'confirm', { candidate: { user_id: 5, fname: 'Sam', lname: 'Woodruff' } }),
    user(2, 'create', { email: null }),
    user(4, 'unchanged'),
    user(5, 'create', { email: 'roe@example.org', candidate: { user_id: 6, fname: 'Sam', lname: 'Roe' } }),
    { row: 2, target: 'calling', action: 'create', calling: 'Ward Choir Director' },
    seat(1, 'unchanged'),
    seat(2, 'fill'),
    seat(4, 'fill', { released_user_id: 9, released_fname: 'Ann', released_lname: 'Poe' }),
    seat(5, 'unchanged'),
    seat(9, 'unchanged'),
    { row: null, target: 'slot', action: 'release', calling: 'Ward Clerk', fname: 'Tim', lname: 'Loe' },
  ],
  problems: [
    { row: 6, code: 'not_a_name', message: '"14 Sep 2025" stands in the name column but is a date, not a person' },
    { row: 8, code: 'same_name', message: 'Jane Doe is listed twice' },
    { row: null, code: 'count_mismatch', message: 'The report says "Count: 4" (line 12) but 3 rows were read' },
  ],
}

describe('the row summary', () => {
  it('counts each row once, and the counts add up to the report rows', () => {
    const counts = rowCounts({ ...shown, changes: [...shown.changes, seat(10, 'fill')], rows_total: 10 })
    assert.deepEqual(
      counts.map((c) => [c.kind, c.count]),
      [
        ['fill', 2],
        ['replace', 1],
        ['seatKept', 2],
        ['vacant', 2],
        ['toConfirm', 1],
        ['leftOut', 2],
      ],
    )
    assert.equal(
      counts.reduce((n, c) => n + c.count, 0),
      10,
    )
  })

  it('a member list counts its people; a row with nothing of its own repeats an earlier one', () => {
    const members = {
      rows_total: 4,
      vacant: [],
      problems: [],
      changes: [user(1, 'create'), user(2, 'update'), user(3, 'unchanged')],
    }
    assert.deepEqual(
      rowCounts(members).map((c) => [c.kind, c.count]),
      [
        ['newPerson', 1],
        ['personUpdate', 1],
        ['personKept', 1],
        ['repeat', 1],
      ],
    )
  })

  it('tells what happens besides the rows: people added (roster only), callings created, seats released', () => {
    assert.deepEqual(besidesRows(shown), { newPeople: 2, rosterOnly: 1, updated: 0, newCallings: 1, released: 1 })
    assert.deepEqual(besidesRows({ ...shown, kind: 'members' }).newPeople, 0)
  })

  it('lists the possible matches with the answer so far', () => {
    const answered = { ...shown.changes[3]!, match: 'rejected' as const }
    assert.deepEqual(possibleMatches({ changes: [shown.changes[0]!, answered] }), [
      { row: 1, name: 'Samuel B Woodruff', candidate: 'Sam Woodruff', answer: null },
      { row: 5, name: 'Samuel B Woodruff', candidate: 'Sam Roe', answer: 'rejected' },
    ])
  })
})

describe('problem sentences', () => {
  const locales = path.join(import.meta.dirname, '..', '..', 'i18n', 'locales')
  const problems = (lng: string) =>
    JSON.parse(fs.readFileSync(path.join(locales, lng, 'imports.json'), 'utf8')).problems as Record<string, string>

  it('quote the report’s own cell, never the server’s English', () => {
    assert.deepEqual(problemSentence(shown.problems[0]!), { key: 'problems.not_a_name', value: '14 Sep 2025' })
    assert.deepEqual(problemSentence(shown.problems[1]!), { key: 'problems.same_name' })
    assert.deepEqual(problemSentence(shown.problems[2]!), { key: 'problems.count_mismatch', value: 'Count: 4' })
  })

  it('a code the client does not know, or a quoting one without its quote, gets the general sentence', () => {
    assert.deepEqual(problemSentence({ code: 'brand_new', message: 'x' }), { key: 'problems.unknown' })
    assert.deepEqual(problemSentence({ code: 'invalid_name', message: 'no quote' }), { key: 'problems.unknown' })
  })

  it('every sentence a problem can get exists in English and Spanish', () => {
    const codes = Object.keys(problems('en'))
    for (const code of codes) {
      const { key } = problemSentence({ code, message: '"x"' })
      for (const lng of ['en', 'es']) assert.ok(problems(lng)[key.replace('problems.', '')], `${lng} ${key}`)
    }
  })
})
