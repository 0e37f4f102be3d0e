import type { Ward, WardBody } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { isForeignKeyViolation, isUniqueViolation } from '../../db/database.ts'
import type { Executor } from '../../db/types.ts'
import { conflict, notFound } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import * as callings from '../callings/callings.repository.ts'
import * as slotRepo from '../callings/slots.repository.ts'
import { assertMaySeat, seatEvent, seatUser, unseatUser } from '../callings/slots.service.ts'
import { audited, record } from '../../events/record.ts'
import { fieldChanges } from '../../events/facts.ts'
import * as repo from './wards.repository.ts'
import { withTransaction } from '../../db/transaction.ts'

const duplicateName = () => conflict('duplicate_name', 'A ward with this name already exists')
const inUse = () => conflict('in_use', 'This ward is still referred to (proposals or speaking assignments)')
const BISHOP_FIELD = ['body', 'bishop_id']
const withoutBishop = (ward: Ward): Ward => ({ ...ward, bishop_id: null })

/** The facts an audit entry keeps of a ward. */
const wardFacts = (ward: Ward) => ({
  name: ward.name,
  start_time: ward.start_time,
  speaking_sunday: ward.speaking_sunday,
})

/**
 * Wards (docs/api-reference.md §6). Each ward owns one slot of the system Bishop calling,
 * numbered by the ward's id. Lock order in every transaction: the Bishop
 * calling row, then the ward, then the slot — so ward writes and bishop-slot
 * fills never deadlock on PostgreSQL.
 */
export class WardsService {
  constructor(private readonly ctx: AppContext) {}

  private async lockBishopCalling(trx: Executor, mode: 'share' | 'update') {
    const bishop = await callings.findCallingByKey(trx, callings.BISHOP)
    if (!bishop) throw new Error('The system Bishop calling is missing')
    await callings.lockCalling(trx, bishop.id, this.ctx.dialect, mode)
    return {
      id: bishop.id,
      key: bishop.key,
      name: bishop.name,
      grants: await callings.callingPermissions(trx, bishop.id),
    }
  }

  /** Anonymous callers do not learn who the bishops are (S9), as with slot holders (docs/api-reference.md §5). */
  async list(anonymous: boolean): Promise<Ward[]> {
    const wards = await repo.listWards(this.ctx.db)
    return anonymous ? wards.map(withoutBishop) : wards
  }

  async get(id: number, anonymous: boolean): Promise<Ward> {
    const ward = await repo.findWard(this.ctx.db, id)
    if (!ward) throw notFound('Ward')
    return anonymous ? withoutBishop(ward) : ward
  }

  /** Creates the ward and its Bishop slot (and seats `bishop_id`) in one transaction. */
  async create(actor: Actor, body: WardBody): Promise<Ward> {
    try {
      return await withTransaction(this.ctx.db, async (trx) => {
        const bishop = await this.lockBishopCalling(trx, 'update')
        if (body.bishop_id != null) assertMaySeat(actor, bishop, bishop.grants, body.bishop_id)
        const now = this.ctx.clock.iso()
        const { id } = await repo.insertWard(trx, {
          name: body.name,
          start_time: body.start_time,
          speaking_sunday: body.speaking_sunday,
          now,
        })
        await slotRepo.insertWardSlot(trx, bishop.id, id)
        await callings.setMaxSlots(trx, bishop.id, await slotRepo.countSlots(trx, bishop.id))
        if (body.bishop_id != null)
          await seatUser(trx, { callingId: bishop.id, slotId: id }, body.bishop_id, now, BISHOP_FIELD)
        const ward = (await repo.findWard(trx, id))!
        const who = { by: actor.id, at: now }
        await record(trx, this.ctx, audited(who, 'ward.create', { type: 'ward', id }, wardFacts(ward)))
        if (body.bishop_id != null) await record(trx, this.ctx, seatEvent(who, 'slot.fill', bishop, id, body.bishop_id))
        return ward
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName()
      throw error
    }
  }

  /**
   * PUT /wards/{id}. `bishop_id`: omitted leaves the Bishop slot alone; null
   * releases it; another user replaces the holder (release + fill, both in
   * the history). Seating and releasing both need the Bishop seat's powers (S3).
   */
  async update(actor: Actor, id: number, body: WardBody): Promise<Ward> {
    const { db, dialect } = this.ctx
    try {
      return await withTransaction(db, async (trx) => {
        const bishop = await this.lockBishopCalling(trx, 'share')
        const before = await repo.findWard(trx, id)
        if (!before) throw notFound('Ward')
        const slot = { callingId: bishop.id, slotId: id, grants: bishop.grants }
        const holder = (await slotRepo.findSlot(trx, bishop.id, id))?.user_id ?? null
        const change = body.bishop_id !== undefined && body.bishop_id !== holder
        if (change && holder !== null) assertMaySeat(actor, bishop, bishop.grants, null)
        if (change && body.bishop_id != null) assertMaySeat(actor, bishop, bishop.grants, body.bishop_id)

        const now = this.ctx.clock.iso()
        await repo.updateWard(trx, id, {
          name: body.name,
          start_time: body.start_time,
          speaking_sunday: body.speaking_sunday,
          now,
        })
        const who = { by: actor.id, at: now }
        if (change) {
          if (holder !== null && !(await unseatUser(trx, dialect, slot, holder, now))) {
            throw conflict('slot_filled', 'The Bishop slot changed meanwhile; reload and try again')
          }
          if (body.bishop_id != null) await seatUser(trx, slot, body.bishop_id, now, BISHOP_FIELD)
          if (holder !== null) await record(trx, this.ctx, seatEvent(who, 'slot.release', bishop, id, holder))
          if (body.bishop_id != null)
            await record(trx, this.ctx, seatEvent(who, 'slot.fill', bishop, id, body.bishop_id))
        }
        const ward = (await repo.findWard(trx, id))!
        const changes = fieldChanges(wardFacts(before), wardFacts(ward), ['name', 'start_time', 'speaking_sunday'])
        if (changes)
          await record(trx, this.ctx, audited(who, 'ward.update', { type: 'ward', id }, { name: ward.name, changes }))
        return ward
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName()
      throw error
    }
  }

  /**
   * DELETE /wards/{id}: refused (409 in_use) while another table refers to
   * the ward — proposals, speaking overrides: their foreign keys have no
   * cascade, so the database decides. A seated bishop does not block it: the
   * slot goes with the ward and the holding is closed in the history.
   */
  async remove(actor: Actor, id: number): Promise<void> {
    try {
      await withTransaction(this.ctx.db, async (trx) => {
        const bishop = await this.lockBishopCalling(trx, 'update')
        const ward = await repo.findWard(trx, id)
        if (!ward) throw notFound('Ward')
        const holder = (await slotRepo.findSlot(trx, bishop.id, id))?.user_id ?? null
        // Deleting the ward unseats its bishop: that needs the seat's powers (S3).
        if (holder !== null) assertMaySeat(actor, bishop, bishop.grants, null)
        await repo.deleteWard(trx, id)
        const who = { by: actor.id, at: this.ctx.clock.iso() }
        if (holder !== null) await slotRepo.closeHistory(trx, bishop.id, id, holder, who.at)
        if (holder !== null) await record(trx, this.ctx, seatEvent(who, 'slot.release', bishop, id, holder))
        await record(trx, this.ctx, audited(who, 'ward.delete', { type: 'ward', id }, { name: ward.name }))
        await callings.setMaxSlots(trx, bishop.id, await slotRepo.countSlots(trx, bishop.id))
      })
    } catch (error) {
      if (isForeignKeyViolation(error)) throw inUse()
      throw error
    }
  }
}
