/**
 * The speaking rotation as pure functions (docs/api-reference.md §8): no database, no clock.
 *
 * Seats are the High Councilor calling's slots, wards are taken in id order.
 * An override row pins one seat's ward (or "not speaking", null) in one month;
 * a month's cells without a row follow the computed rotation. The functions
 * here guarantee, for any rows that hold each ward at most once per month (the
 * database's UNIQUE (year, month, ward_id)), that a resolved month shows every
 * ward at most once and every seat exactly once.
 */

export type WardId = number
export type SlotId = number

/** k = 12·year + (month − 1): the rotation runs on across years. */
export function monthIndex(year: number, month: number): number {
  return 12 * year + (month - 1)
}

/**
 * The contract's formula: seat s (1..N) speaks in ward index
 * i = (s − 1 + k) mod L with L = max(N, W), when i < W; otherwise not that month.
 */
export function rotationIndex(seat: number, seatCount: number, wardCount: number, k: number): number | null {
  const length = Math.max(seatCount, wardCount)
  if (seat < 1 || seat > seatCount || length === 0) return null
  const i = (((seat - 1 + k) % length) + length) % length
  return i < wardCount ? i : null
}

export interface MonthInput {
  year: number
  month: number
  /** The seats' slot ids in ascending order; seat number s is the 1-based position. */
  seats: readonly SlotId[]
  /** Ward ids in ascending id order. */
  wards: readonly WardId[]
  /** This month's override rows: slot id → ward id, or null for "not speaking". */
  rows: ReadonlyMap<SlotId, WardId | null>
}

export interface Cell {
  ward_id: WardId | null
  overridden: boolean
}

/**
 * The ward the rotation gives a seat. Seat numbers are positions in slot order
 * (equal to the slot ids, which run 1..N), so a vacant seat keeps its place.
 */
export function rotationWard(input: Omit<MonthInput, 'rows'>, slotId: SlotId): WardId | null {
  const seat = input.seats.indexOf(slotId) + 1
  const i = rotationIndex(seat, input.seats.length, input.wards.length, monthIndex(input.year, input.month))
  return i === null ? null : input.wards[i]!
}

/**
 * Every seat's cell for one month. A seat with a row shows it (overridden). A
 * seat without one shows its rotation ward, unless an override row holds that
 * ward: then it takes the ward the holder would have had by rotation (and so
 * on along the chain) — the same exchange a swap makes, so rotation cells that
 * have no row can never double-book a ward, even after wards or seats change
 * and the rotation re-flows under older overrides.
 *
 * Why the chain is safe: the rotation is injective over seats and rows hold
 * each ward at most once, so following "ward → holder's rotation ward" visits
 * distinct seats, ends at a ward no row holds, and two chains never meet.
 */
export function resolveMonth(input: MonthInput): Map<SlotId, Cell> {
  const known = new Set(input.seats)
  const wardSet = new Set(input.wards)
  const holder = new Map<WardId, SlotId>()
  for (const slot of input.seats) {
    const ward = input.rows.get(slot)
    // Rows of seats that no longer exist are ignored (the seat is gone).
    if (ward !== undefined && ward !== null && wardSet.has(ward) && !holder.has(ward)) holder.set(ward, slot)
  }
  const rotation = new Map(input.seats.map((slot) => [slot, rotationWard(input, slot)]))
  const cells = new Map<SlotId, Cell>()
  for (const slot of input.seats) {
    if (input.rows.has(slot) && known.has(slot)) {
      const ward = input.rows.get(slot)!
      cells.set(slot, { ward_id: ward !== null && holder.get(ward) === slot ? ward : null, overridden: true })
      continue
    }
    let ward = rotation.get(slot) ?? null
    for (let steps = 0; ward !== null && holder.has(ward); steps++) {
      ward = steps < input.seats.length ? (rotation.get(holder.get(ward)!) ?? null) : null
    }
    cells.set(slot, { ward_id: ward, overridden: false })
  }
  return cells
}

/** What to write for one month: rows to (re)write and rows to remove, in one transaction. */
export interface MonthWrite {
  upserts: { slot_id: SlotId; ward_id: WardId | null }[]
  deletes: SlotId[]
}

function holderOf(cells: Map<SlotId, Cell>, ward: WardId, except: SlotId): SlotId | null {
  for (const [slot, cell] of cells) if (slot !== except && cell.ward_id === ward) return slot
  return null
}

/**
 * The other half of an exchange: the partner takes `ward`. A partner that lands
 * on its own rotation ward needs no row — it is simply back in the rotation.
 */
function partnerWrite(input: MonthInput, write: MonthWrite, partner: SlotId, ward: WardId | null): void {
  if (ward !== null && ward === rotationWard(input, partner)) write.deletes.push(partner)
  else write.upserts.push({ slot_id: partner, ward_id: ward })
}

/**
 * PUT override: the seat takes `ward` (null = not speaking). If another seat
 * has that ward this month, the two swap: that seat takes this seat's ward.
 */
export function planOverride(input: MonthInput, slot: SlotId, ward: WardId | null): MonthWrite {
  const cells = resolveMonth(input)
  const current = cells.get(slot)?.ward_id ?? null
  const write: MonthWrite = { upserts: [{ slot_id: slot, ward_id: ward }], deletes: [] }
  const partner = ward === null ? null : holderOf(cells, ward, slot)
  if (partner !== null) partnerWrite(input, write, partner, current)
  return write
}

/**
 * DELETE override: the seat goes back to its rotation ward. If another seat
 * shows that ward (typically the other half of an earlier swap), it takes this
 * seat's current ward — so clearing one half of a swap undoes the whole swap.
 * A seat without a row is already in the rotation: nothing to do.
 */
export function planRestore(input: MonthInput, slot: SlotId): MonthWrite {
  const write: MonthWrite = { upserts: [], deletes: [] }
  if (!input.rows.has(slot)) return write
  const cells = resolveMonth(input)
  const current = cells.get(slot)?.ward_id ?? null
  const target = rotationWard(input, slot)
  write.deletes.push(slot)
  const partner = target === null || target === current ? null : holderOf(cells, target, slot)
  if (partner !== null) partnerWrite(input, write, partner, current)
  return write
}

/** Applies a plan to a month's rows (used by the tests, and to check a plan before writing). */
export function applyWrite(rows: ReadonlyMap<SlotId, WardId | null>, write: MonthWrite): Map<SlotId, WardId | null> {
  const next = new Map(rows)
  for (const slot of write.deletes) next.delete(slot)
  for (const { slot_id, ward_id } of write.upserts) next.set(slot_id, ward_id)
  return next
}
