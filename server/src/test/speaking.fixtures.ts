// Test helpers of the speaking schedule (imported by its *.test.ts files only).
import assert from 'node:assert/strict'
import type { SpeakingCalendar } from '@stake/contract'
import type { TestApp } from './harness.ts'
import { unique } from './factories.ts'
import { HIGH_COUNCILOR } from '../modules/callings/callings.repository.ts'

/** Inserts a ward directly (the wards API belongs to another module). */
export async function createWard(t: TestApp, name = unique('Ward ')): Promise<{ id: number; name: string }> {
  const now = t.clock.now().toISOString()
  const row = await t.database.db
    .insertInto('wards')
    .values({ name, name_key: name.trim().toLowerCase(), start_time: 600, created_at: now, updated_at: now })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow()
  return row
}

async function highCouncilId(t: TestApp): Promise<number> {
  const calling = await t.database.db
    .selectFrom('callings')
    .select('id')
    .where('key', '=', HIGH_COUNCILOR)
    .executeTakeFirstOrThrow()
  return calling.id
}

/** Makes the High Councilor calling have exactly slots 1..n (as HIGH_COUNCIL_SEATS would). */
export async function setSeatCount(t: TestApp, n: number): Promise<void> {
  const db = t.database.db
  const callingId = await highCouncilId(t)
  await db.deleteFrom('calling_slots').where('calling_id', '=', callingId).where('slot_id', '>', n).execute()
  const existing = new Set(
    (await db.selectFrom('calling_slots').select('slot_id').where('calling_id', '=', callingId).execute()).map(
      (r) => r.slot_id,
    ),
  )
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((s) => !existing.has(s))
  if (missing.length)
    await db
      .insertInto('calling_slots')
      .values(missing.map((slot_id) => ({ calling_id: callingId, slot_id })))
      .execute()
  await db.updateTable('callings').set({ max_slots: n }).where('id', '=', callingId).execute()
}

/** Sets a seat's holder directly (null = vacant), as the callings API would. */
export async function setHolder(t: TestApp, slotId: number, userId: number | null): Promise<void> {
  const callingId = await highCouncilId(t)
  await t.database.db
    .updateTable('calling_slots')
    .set({ user_id: userId, filled_at: userId === null ? null : t.clock.now().toISOString() })
    .where('calling_id', '=', callingId)
    .where('slot_id', '=', slotId)
    .execute()
}

/** The contract's formula, written out independently of speaking.rotation.ts. */
export function expectedWard(
  seat: number,
  seatCount: number,
  wardIds: number[],
  year: number,
  month: number,
): number | null {
  const length = Math.max(seatCount, wardIds.length)
  if (length === 0) return null
  const i = (seat - 1 + 12 * year + (month - 1)) % length
  return i < wardIds.length ? wardIds[i]! : null
}

/** A cell of the calendar. */
export function cell(calendar: SpeakingCalendar, slotId: number, month: number) {
  const row = calendar.rows.find((r) => r.slot_id === slotId)
  assert.ok(row, `no row for slot ${slotId}`)
  return row.months[month - 1]!
}

/** Every month: no ward twice, every seat exactly once, only known wards. */
export function assertNoDoubleBooking(calendar: SpeakingCalendar, label = ''): void {
  const wardIds = new Set(calendar.wards.map((w) => w.id))
  const slots = calendar.rows.map((r) => r.slot_id)
  assert.equal(new Set(slots).size, slots.length, `${label} a seat twice`)
  for (let month = 1; month <= 12; month++) {
    const wards = calendar.rows.map((r) => {
      assert.equal(r.months.length, 12)
      assert.equal(r.months[month - 1]!.month, month)
      return r.months[month - 1]!.ward_id
    })
    const given = wards.filter((w): w is number => w !== null)
    assert.equal(new Set(given).size, given.length, `${label} month ${month}: a ward twice (${JSON.stringify(wards)})`)
    for (const w of given) assert.ok(wardIds.has(w), `${label} month ${month}: unknown ward ${w}`)
  }
}

/** mulberry32: a tiny seeded PRNG so failures reproduce. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
