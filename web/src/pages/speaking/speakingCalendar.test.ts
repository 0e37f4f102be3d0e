/** The speaking grid's counts (run with `npm run test:unit -w web`). */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { CalendarRow } from '../../api/types.ts'
import { vacantMonths } from './speakingCalendar.ts'

function row(slot: number, holder: number | null, wards: (number | null)[]): CalendarRow {
  return {
    slot_id: slot,
    high_councilor_id: holder,
    high_councilor: null,
    months: wards.map((ward_id, i) => ({ month: i + 1, ward_id, overridden: false })),
  } as unknown as CalendarRow
}

describe('vacantMonths', () => {
  it('counts the months a vacant seat is given a ward', () => {
    const rows = [row(1, 7, [1, 2, 1]), row(2, null, [2, null, 2]), row(3, null, [null, 1, null])]
    assert.equal(vacantMonths(rows), 3)
  })

  it('is zero when every seat is held or a vacant seat has no ward', () => {
    assert.equal(vacantMonths([row(1, 7, [1, 2]), row(2, null, [null, null])]), 0)
    assert.equal(vacantMonths([]), 0)
  })
})
