import type { TFunction } from 'i18next'
import type { CalendarRow } from '../../api/types'
import { fullName } from '../../auth/roles'

/** A cell of the grid: one seat in one month. */
export interface CellTarget {
  row: CalendarRow
  month: number
}

export function seatLabel(row: CalendarRow, t: TFunction<'speaking'>): string {
  return row.high_councilor ? fullName(row.high_councilor) : t('speaking:vacantSeat', { seat: row.slot_id })
}

export const isVacant = (row: CalendarRow) => row.high_councilor_id == null

/**
 * How many months of the year the rotation gives to vacant seats: each is a
 * ward that hears no high councilor that month, which the page says in words.
 */
export function vacantMonths(rows: readonly CalendarRow[]): number {
  return rows.filter(isVacant).reduce((sum, row) => sum + row.months.filter((m) => m.ward_id != null).length, 0)
}
