import type { Stewardship, Stewardships, StewardshipsBody } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { isForeignKeyViolation, isUniqueViolation } from '../../db/database.ts'
import { withTransaction } from '../../db/transaction.ts'
import { conflict, invalid } from '../../errors.ts'
import { audited, record } from '../../events/record.ts'
import type { Actor } from '../../actor.ts'
import * as repo from './stewardships.repository.ts'

/** High-council stewardships (docs/api-reference.md §18). */
export class StewardshipsService {
  constructor(private readonly ctx: AppContext) {}

  /** Every High Councilor seat in slot order with its holder, wards and organizations (two queries). */
  async get(db = this.ctx.db): Promise<Stewardships> {
    const [seats, rows] = await Promise.all([repo.listSeats(db), repo.listRows(db)])
    const bySeat = new Map<number, Stewardship>(
      seats.map((s) => [
        s.slot_id,
        {
          slot_id: s.slot_id,
          high_councilor: s.user_id === null ? null : { id: s.user_id, fname: s.fname ?? '', lname: s.lname ?? '' },
          wards: [],
          organizations: [],
        },
      ]),
    )
    for (const row of rows) {
      // A seat removed since (HIGH_COUNCIL_SEATS lowered) keeps its rows, unseen until it returns.
      const seat = bySeat.get(row.slot_id)
      if (!seat) continue
      if (row.ward_id !== null) seat.wards.push({ id: row.ward_id, name: row.ward_name ?? '' })
      else if (row.organization !== null) seat.organizations.push(row.organization)
    }
    for (const seat of bySeat.values()) seat.wards.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id)
    return { seats: [...bySeat.values()] }
  }

  /**
   * Replaces the assignment in one transaction: seats must be High Councilor
   * seats, wards must exist, and a ward has one steward (422; the unique
   * key settles two saves racing: 409).
   */
  async put(actor: Actor, body: StewardshipsBody): Promise<Stewardships> {
    const seats = new Set((await repo.listSeats(this.ctx.db)).map((s) => s.slot_id))
    const wardIds = new Set<number>()
    const seen = new Set<number>()
    const rows: repo.StewardshipInsert[] = []
    for (const [i, seat] of body.seats.entries()) {
      if (!seats.has(seat.slot_id))
        throw invalid(['body', 'seats', String(i), 'slot_id'], 'Not a High Councilor seat', 'not_a_seat')
      if (seen.has(seat.slot_id))
        throw invalid(['body', 'seats', String(i), 'slot_id'], 'A seat is listed once', 'duplicate')
      seen.add(seat.slot_id)
      let position = 0
      for (const wardId of seat.ward_ids) {
        if (wardIds.has(wardId))
          throw invalid(['body', 'seats', String(i), 'ward_ids'], 'A ward has one steward', 'duplicate_ward')
        wardIds.add(wardId)
        rows.push({ slot_id: seat.slot_id, ward_id: wardId, organization: null, organization_key: null, position })
        position++
      }
      const keys = new Set<string>()
      for (const name of seat.organizations) {
        const organization = name.trim().replace(/\s+/g, ' ')
        const key = organization.toLowerCase()
        if (keys.has(key)) continue
        keys.add(key)
        rows.push({ slot_id: seat.slot_id, ward_id: null, organization, organization_key: key, position })
        position++
      }
    }
    const wards = await repo.existingWards(this.ctx.db, [...wardIds])
    if (wards.length !== wardIds.size) throw invalid(['body', 'seats'], 'Ward not found', 'ward_not_found')
    const names = new Map(wards.map((w) => [w.id, w.name]))
    try {
      return await withTransaction(this.ctx.db, async (trx) => {
        await repo.replaceAll(trx, rows)
        const detail = {
          seats: body.seats.map((s) => ({
            slot_id: s.slot_id,
            wards: s.ward_ids.map((id) => names.get(id) ?? ''),
            organizations: rows.filter((r) => r.slot_id === s.slot_id && r.organization).map((r) => r.organization!),
          })),
        }
        await record(
          trx,
          this.ctx,
          audited({ by: actor.id, at: this.ctx.clock.iso() }, 'stewardship.update', null, detail),
        )
        return this.get(trx)
      })
    } catch (error) {
      if (isForeignKeyViolation(error)) throw invalid(['body', 'seats'], 'Ward not found', 'ward_not_found')
      if (isUniqueViolation(error))
        throw conflict('conflict', 'The stewardships changed meanwhile; reload and try again')
      throw error
    }
  }
}
