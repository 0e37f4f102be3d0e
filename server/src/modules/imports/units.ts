/**
 * Wards named by a report (docs/api-reference.md §15): a member list's unit
 * column places a person in a ward of the stake, and in a stake-level report
 * a ward calling goes to the ward its row names — never to the stake.
 */

export interface SnapshotWard {
  id: number
  name: string
}

/** Case-, accent- and spacing-insensitive. */
export const fold = (s: string): string =>
  s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim()

/** A unit's name as compared: without its number in parentheses and without "Ward"/"Branch". */
const unitKey = (name: string): string =>
  fold(name)
    .replace(/\(\s*\d+\s*\)/g, ' ')
    .replace(/\b(ward|branch)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()

/** The ward of the stake a unit cell names ("Maple Grove Ward (1234567)" is the ward "Maple Grove Ward"), or null. */
export function wardNamed(wards: readonly SnapshotWard[], unit: string | null): SnapshotWard | null {
  if (unit === null) return null
  const key = unitKey(unit)
  if (key === '') return null
  return wards.find((w) => unitKey(w.name) === key) ?? null
}

const STAKE_WORDS = /\bstake\b|\bhigh council/i

/** Where a row's seat is in a report imported without a ward: a ward's, the stake's, or no ward can be told. */
export type RowScope = { ward: number } | 'stake' | { unnamed: string }

/**
 * A stake-level report's row: a stake calling (its calling or organization
 * says "Stake" or "High Council", a Bishop aside) stays the stake's; any other
 * calling is a ward's and goes to the ward its row names (the unit column),
 * or cannot be seated when the row names no ward of the stake.
 */
export function scopeOfRow(
  wards: readonly SnapshotWard[],
  row: { calling: string; organization: string | null; unit: string | null },
): RowScope {
  if (STAKE_WORDS.test(`${row.calling} ${row.organization ?? ''}`) && !/\bbishop\b/i.test(row.calling)) return 'stake'
  const ward = wardNamed(wards, row.unit)
  if (ward) return { ward: ward.id }
  return {
    unnamed:
      row.unit === null ? 'names no ward' : `names "${row.unit.slice(0, 60)}", which is not a ward of this stake`,
  }
}
