import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  applyWrite,
  monthIndex,
  planOverride,
  planRestore,
  resolveMonth,
  rotationIndex,
  rotationWard,
  type MonthInput,
  type SlotId,
  type WardId,
} from './speaking.rotation.ts'
import { prng } from '../../test/speaking.fixtures.ts'

const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => i + from)

function month(seats: number, wards: number, year = 2026, m = 1, rows: [SlotId, WardId | null][] = []): MonthInput {
  return { year, month: m, seats: range(seats), wards: range(wards, 101), rows: new Map(rows) }
}

/** No ward twice, every seat exactly once, overridden exactly where a row is. */
function assertConsistent(input: MonthInput, label = '') {
  const cells = resolveMonth(input)
  assert.deepEqual(
    [...cells.keys()].sort((a, b) => a - b),
    [...input.seats].sort((a, b) => a - b),
    `${label} every seat once`,
  )
  const wards = [...cells.values()].map((c) => c.ward_id).filter((w): w is number => w !== null)
  assert.equal(new Set(wards).size, wards.length, `${label} a ward twice: ${JSON.stringify([...cells])}`)
  for (const w of wards) assert.ok(input.wards.includes(w), `${label} unknown ward ${w}`)
  for (const [slot, cell] of cells)
    assert.equal(cell.overridden, input.rows.has(slot), `${label} overridden flag of ${slot}`)
  return cells
}

describe('speaking rotation (pure)', () => {
  it('monthIndex is 12·year + month − 1, so December and the next January are consecutive', () => {
    assert.equal(monthIndex(2026, 1), 12 * 2026)
    assert.equal(monthIndex(2026, 12) + 1, monthIndex(2027, 1))
    assert.equal(monthIndex(2000, 1), 24000)
  })

  it('rotationIndex follows the contract formula i = (s − 1 + k) mod max(N, W), null when i ≥ W', () => {
    // N = W = 3
    assert.deepEqual(
      [1, 2, 3].map((s) => rotationIndex(s, 3, 3, 0)),
      [0, 1, 2],
    )
    assert.deepEqual(
      [1, 2, 3].map((s) => rotationIndex(s, 3, 3, 1)),
      [1, 2, 0],
    )
    // N = 4 seats, W = 2 wards: L = 4, two seats rest each month
    assert.deepEqual(
      [1, 2, 3, 4].map((s) => rotationIndex(s, 4, 2, 0)),
      [0, 1, null, null],
    )
    assert.deepEqual(
      [1, 2, 3, 4].map((s) => rotationIndex(s, 4, 2, 3)),
      [null, 0, 1, null],
    )
    // N = 2 seats, W = 5 wards: L = 5, three wards without a speaker each month
    assert.deepEqual(
      [1, 2].map((s) => rotationIndex(s, 2, 5, 4)),
      [4, 0],
    )
    // Real calendar months: k = 12·2026 = 24312 ≡ 0 (mod 12), ≡ 2 (mod 5)
    assert.deepEqual(
      range(12).map((s) => rotationIndex(s, 12, 12, monthIndex(2026, 1))),
      range(12, 0),
    )
    assert.deepEqual(
      [1, 2].map((s) => rotationIndex(s, 2, 5, monthIndex(2026, 1))),
      [2, 3],
    )
  })

  it('rotationIndex is null for no seats, no wards, or a seat outside 1..N', () => {
    assert.equal(rotationIndex(1, 0, 0, 5), null)
    assert.equal(rotationIndex(1, 3, 0, 5), null)
    assert.equal(rotationIndex(0, 3, 3, 5), null)
    assert.equal(rotationIndex(4, 3, 3, 5), null)
  })

  it('for every N, W ≤ 9 and every month over several years: wards distinct, full coverage of the smaller side, each seat visits every ward', () => {
    for (let n = 0; n <= 9; n++) {
      for (let w = 0; w <= 9; w++) {
        const length = Math.max(n, w)
        const visits = range(n).map(() => new Set<number>())
        for (let year = 2024; year <= 2028; year++) {
          for (let m = 1; m <= 12; m++) {
            const k = monthIndex(year, m)
            const indexes = range(n).map((s) => rotationIndex(s, n, w, k))
            const given = indexes.filter((i): i is number => i !== null)
            assert.equal(new Set(given).size, given.length, `N=${n} W=${w} ${year}-${m}`)
            assert.equal(given.length, Math.min(n, w), `N=${n} W=${w} ${year}-${m}: min(N, W) speakers`)
            indexes.forEach((i, s) => i !== null && visits[s]!.add(i))
            // Next month every seat moves one ward on (cyclically over L).
            const next = range(n).map((s) => (s - 1 + k + 1) % length)
            assert.deepEqual(
              range(n).map((s) => rotationIndex(s, n, w, k + 1)),
              next.map((i) => (i < w ? i : null)),
            )
          }
        }
        if (length > 0 && 60 >= length)
          for (const seen of visits) assert.equal(seen.size, w, `N=${n} W=${w}: every ward visited`)
      }
    }
  })

  it('rotationWard maps indexes to ward ids in id order; a vacant or any seat keeps its place by slot order', () => {
    const input = { year: 2026, month: 2, seats: [1, 2, 3], wards: [7, 9, 30] }
    // k = 24313 ≡ 1 (mod 3)
    assert.deepEqual(
      input.seats.map((s) => rotationWard(input, s)),
      [9, 30, 7],
    )
  })

  it('resolveMonth without rows is exactly the rotation, nothing overridden', () => {
    for (const [n, w] of [
      [3, 3],
      [2, 5],
      [5, 2],
      [12, 12],
      [0, 4],
      [4, 0],
    ] as const) {
      const input = month(n, w, 2027, 7)
      const cells = assertConsistent(input)
      for (const slot of input.seats)
        assert.deepEqual(cells.get(slot), { ward_id: rotationWard(input, slot), overridden: false })
    }
  })

  it('planOverride swaps with the seat that has the ward, writing both rows', () => {
    const input = month(3, 3, 2026, 1) // rotation: 1→101, 2→102, 3→103
    const write = planOverride(input, 2, 101)
    assert.deepEqual(write, {
      upserts: [
        { slot_id: 2, ward_id: 101 },
        { slot_id: 1, ward_id: 102 },
      ],
      deletes: [],
    })
    const after = resolveMonth({ ...input, rows: applyWrite(input.rows, write) })
    assert.deepEqual(after.get(1), { ward_id: 102, overridden: true })
    assert.deepEqual(after.get(2), { ward_id: 101, overridden: true })
    assert.deepEqual(after.get(3), { ward_id: 103, overridden: false })
  })

  it('planOverride to a free ward or to null writes only the seat; its old ward is left without a speaker', () => {
    const input = month(2, 4, 2026, 1) // L = 4, k ≡ 0: 1→101, 2→102; 103 and 104 free
    assert.deepEqual(planOverride(input, 1, 104), { upserts: [{ slot_id: 1, ward_id: 104 }], deletes: [] })
    assert.deepEqual(planOverride(input, 1, null), { upserts: [{ slot_id: 1, ward_id: null }], deletes: [] })
    const cells = resolveMonth({ ...input, rows: new Map([[1, null]]) })
    assert.deepEqual(cells.get(1), { ward_id: null, overridden: true })
    assert.deepEqual(cells.get(2), { ward_id: 102, overridden: false })
  })

  it('planOverride of a seat with nothing (null) taking a ward: the other seat is left with nothing', () => {
    const input = month(4, 2, 2026, 1) // 1→101, 2→102, 3 and 4 rest
    const write = planOverride(input, 3, 102)
    assert.deepEqual(write, {
      upserts: [
        { slot_id: 3, ward_id: 102 },
        { slot_id: 2, ward_id: null },
      ],
      deletes: [],
    })
  })

  it('a swap partner that lands back on its own rotation ward loses its row', () => {
    const input = month(3, 3, 2026, 1)
    const swapped = applyWrite(input.rows, planOverride(input, 2, 101)) // 2→101, 1→102
    const back = planOverride({ ...input, rows: swapped }, 2, 102) // 1 takes 101 again = its rotation ward
    assert.deepEqual(back, { upserts: [{ slot_id: 2, ward_id: 102 }], deletes: [1] })
  })

  it('planRestore of one half of a swap undoes the whole swap', () => {
    const input = month(3, 3, 2026, 1)
    const rows = applyWrite(input.rows, planOverride(input, 2, 101))
    const write = planRestore({ ...input, rows }, 2)
    assert.deepEqual(write, { upserts: [], deletes: [2, 1] })
    assert.equal(applyWrite(rows, write).size, 0)
    // The same from the other half.
    assert.deepEqual(planRestore({ ...input, rows }, 1), { upserts: [], deletes: [1, 2] })
  })

  it('planRestore when the partner has since moved on: the partner takes the restored seat’s ward and keeps a row', () => {
    const input = month(3, 3, 2026, 1)
    let rows = applyWrite(input.rows, planOverride(input, 2, 101)) // 2→101, 1→102
    rows = applyWrite(rows, planOverride({ ...input, rows }, 3, 102)) // 3→102, 1→103
    const write = planRestore({ ...input, rows }, 2) // 2 wants 102 back from 3; 3 takes 101
    assert.deepEqual(write, { upserts: [{ slot_id: 3, ward_id: 101 }], deletes: [2] })
    const cells = assertConsistent({ ...input, rows: applyWrite(rows, write) })
    assert.deepEqual(cells.get(2), { ward_id: 102, overridden: false })
  })

  it('planRestore of a seat without a row does nothing', () => {
    assert.deepEqual(planRestore(month(3, 3), 1), { upserts: [], deletes: [] })
  })

  it('after the rotation re-flows, a rotation cell that lands on an overridden ward takes the holder’s rotation ward', () => {
    // 3 seats, 4 wards, Feb 2026 (k = 24313 ≡ 1 mod 4): rotation 1→102, 2→103, 3→104.
    // Seat 2 holds 102 by an override made before the fourth ward existed.
    const input: MonthInput = {
      year: 2026,
      month: 2,
      seats: [1, 2, 3],
      wards: [101, 102, 103, 104],
      rows: new Map([[2, 102]]),
    }
    const cells = assertConsistent(input)
    assert.deepEqual(cells.get(1), { ward_id: 103, overridden: false }) // 102 is held by 2 → 2's rotation ward 103
    assert.deepEqual(cells.get(2), { ward_id: 102, overridden: true })
    assert.deepEqual(cells.get(3), { ward_id: 104, overridden: false })
  })

  it('a long chain of displaced rotation cells still resolves without double booking', () => {
    // 4 seats, 4 wards, k ≡ 0: rotation s→10s. Rows chain: 1 holds 102, 2 holds 103, 3 holds 104.
    const input: MonthInput = {
      year: 2026,
      month: 1,
      seats: [1, 2, 3, 4],
      wards: [101, 102, 103, 104],
      rows: new Map([
        [1, 102],
        [2, 103],
        [3, 104],
      ]),
    }
    const cells = assertConsistent(input)
    // Seat 4 rotates to 104 (held by 3) → 3's rotation 103 (held by 2) → 102 (held by 1) → 101 (free).
    assert.deepEqual(cells.get(4), { ward_id: 101, overridden: false })
  })

  it('rows of seats that no longer exist are ignored', () => {
    const cells = assertConsistent({ ...month(2, 3), rows: new Map([[7, 101]]) })
    assert.equal(cells.get(1)!.ward_id, 101)
  })

  it('random overrides, restores, ward and seat changes (seeded) never double-book a ward or a seat', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = prng(seed)
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
      let seats = range(1 + Math.floor(random() * 8))
      let wards = range(1 + Math.floor(random() * 8), 101)
      let nextWard = 200
      let rows = new Map<SlotId, WardId | null>()
      const year = 2000 + Math.floor(random() * 101)
      const m = 1 + Math.floor(random() * 12)
      for (let step = 0; step < 40; step++) {
        const input: MonthInput = { year, month: m, seats, wards, rows }
        const label = `seed ${seed} step ${step}`
        const before = assertConsistent(input, label)
        const roll = random()
        if (roll < 0.55 && seats.length > 0) {
          const slot = pick(seats)
          const ward = random() < 0.2 || wards.length === 0 ? null : pick(wards)
          const write = planOverride(input, slot, ward)
          rows = applyWrite(rows, write)
          const after = assertConsistent({ ...input, rows }, label)
          assert.deepEqual(after.get(slot), { ward_id: ward, overridden: true }, label)
          const partner = [...before].find(([s, c]) => s !== slot && ward !== null && c.ward_id === ward)?.[0]
          if (partner !== undefined)
            assert.equal(after.get(partner)!.ward_id, before.get(slot)!.ward_id, `${label} partner`)
        } else if (roll < 0.8 && seats.length > 0) {
          const slot = pick(seats)
          rows = applyWrite(rows, planRestore(input, slot))
          const after = assertConsistent({ ...input, rows }, label)
          assert.equal(after.get(slot)!.overridden, false, label)
          if (input.rows.has(slot)) assert.equal(after.get(slot)!.ward_id, rotationWard(input, slot), label)
        } else if (roll < 0.87) {
          wards = [...wards, nextWard++] // a new ward: the rotation re-flows
        } else if (roll < 0.94) {
          const used = new Set(rows.values())
          const removable = wards.filter((w) => !used.has(w)) // the FK keeps referenced wards
          if (removable.length) wards = wards.filter((w) => w !== pick(removable))
        } else if (random() < 0.5) {
          seats = [...seats, seats.length + 1]
        } else if (seats.length > 0) {
          const gone = seats[seats.length - 1]!
          seats = seats.slice(0, -1)
          rows = new Map([...rows].filter(([s]) => s !== gone)) // ON DELETE CASCADE
        }
      }
    }
  })
})
