import type { CallingHistoryEntry, CallingSlot, Permission } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { isForeignKeyViolation, isUniqueViolation, type Dialect } from '../../db/database.ts'
import type { Executor } from '../../db/types.ts'
import { conflict, forbidden, invalid, notFound } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import { assertUserManagerRemains } from '../users/last-manager.ts'
import * as repo from './callings.repository.ts'
import * as slotRepo from './slots.repository.ts'
import { canSeeCalling, maySeatSelf, seatRequirements, unseatable } from './callings.policy.ts'
import { withTransaction } from '../../db/transaction.ts'
import { record } from '../../events/record.ts'
import { audited, type DomainEvent, type Who } from '../../events/types.ts'

const slotFilled = () => conflict('slot_filled', 'This slot is already filled; release it first')

/**
 * 403 unless the actor holds every permission the seat carries, its grants
 * and its role (S3), for filling and releasing alike; `seating` is the user
 * to be seated, null for a release.
 */
export function assertMaySeat(
  actor: Actor,
  calling: { key: string | null },
  grants: readonly Permission[],
  seating: number | null,
): void {
  const missing = unseatable(actor.permissions, seatRequirements(calling.key, grants))
  if (missing.length > 0) {
    throw forbidden(`This seat carries permissions you do not hold: ${missing.join(', ')}`)
  }
  if (seating === actor.id && !maySeatSelf(actor.permissions)) throw forbidden('You cannot seat yourself')
}

/**
 * Seats an active user in an empty slot, inside the caller's transaction, and
 * opens their history row. `field` is where a bad user id is reported (422).
 */
export async function seatUser(
  trx: Executor,
  slot: { callingId: number; slotId: number },
  userId: number,
  now: string,
  field: string[],
  setApart: string | null = null,
): Promise<void> {
  const user = await slotRepo.findActiveUser(trx, userId)
  if (!user || !user.active) throw invalid(field, 'No active user with this id', 'value_error')
  let filled: boolean
  try {
    filled = await slotRepo.fillEmptySlot(trx, slot.callingId, slot.slotId, userId, now, setApart)
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('conflict', 'This user already holds a slot of this calling')
    if (isForeignKeyViolation(error)) throw invalid(field, 'No active user with this id', 'value_error')
    throw error
  }
  if (!filled) throw slotFilled()
  await slotRepo.openHistory(trx, slot.callingId, slot.slotId, userId, now)
}

/**
 * Empties a slot held by `holderId` and closes the history row. Returns false
 * when someone else changed the slot first. A release that would leave no
 * active user able to manage users is refused (409 last_manager), like
 * deactivating the last administrator.
 */
export async function unseatUser(
  trx: Executor,
  dialect: Dialect,
  slot: { callingId: number; slotId: number; grants: readonly Permission[] },
  holderId: number,
  now: string,
): Promise<boolean> {
  if (!(await slotRepo.vacateSlot(trx, slot.callingId, slot.slotId, holderId))) return false
  await slotRepo.closeHistory(trx, slot.callingId, slot.slotId, holderId, now)
  if (slot.grants.includes('users.manage')) await assertUserManagerRemains(trx, dialect, [holderId])
  return true
}

/** A seat filled or released (the calling is its target; the seat and holder are facts). */
export function seatEvent(
  who: Who,
  kind: 'slot.fill' | 'slot.release',
  calling: { id: number; name: string },
  slotId: number,
  userId: number,
): DomainEvent {
  return audited(
    who,
    kind,
    { type: 'calling', id: calling.id },
    { calling: calling.name, slot_id: slotId, user_id: userId },
  )
}

export class SlotsService {
  constructor(private readonly ctx: AppContext) {}

  async get(actor: Actor | null, callingId: number, slotId: number): Promise<CallingSlot> {
    const { db } = this.ctx
    const calling = await repo.findCalling(db, callingId)
    if (!calling || !canSeeCalling(actor === null, calling)) throw notFound('Calling')
    const slot = await slotRepo.findSlot(db, callingId, slotId)
    if (!slot) throw notFound('Slot')
    return slotRepo.toSlot(slot, actor === null)
  }

  /**
   * PUT /callings/{id}/{slot_id} (docs/api-reference.md §5): allowed on system callings.
   * The winner of concurrent fills is decided by one conditional UPDATE. A
   * fill does not touch the calling's updated_at: that would write the
   * calling row, which concurrent fills hold a share lock on.
   */
  async fill(actor: Actor, callingId: number, slotId: number, userId: number): Promise<CallingSlot> {
    const { db, dialect } = this.ctx
    return withTransaction(db, async (trx) => {
      const calling = await repo.lockCalling(trx, callingId, dialect, 'share')
      if (!calling) throw notFound('Calling')
      if (!(await slotRepo.findSlot(trx, callingId, slotId))) throw notFound('Slot')
      assertMaySeat(actor, calling, await repo.callingPermissions(trx, callingId), userId)
      const now = this.ctx.clock.iso()
      await seatUser(trx, { callingId, slotId }, userId, now, ['body', 'user_id'])
      await record(trx, this.ctx, seatEvent({ by: actor.id, at: now }, 'slot.fill', calling, slotId, userId))
      return slotRepo.toSlot((await slotRepo.findSlot(trx, callingId, slotId))!, false)
    })
  }

  /**
   * DELETE /callings/{id}/{slot_id}: releasing takes the seat's powers away,
   * so it needs them as filling does (S3: callings.manage alone cannot
   * release the stake president). An empty slot is released already: 204
   * again, no history row.
   */
  async release(actor: Actor, callingId: number, slotId: number): Promise<void> {
    const { db, dialect } = this.ctx
    await withTransaction(db, async (trx) => {
      const calling = await repo.lockCalling(trx, callingId, dialect, 'share')
      if (!calling) throw notFound('Calling')
      const slot = await slotRepo.findSlot(trx, callingId, slotId)
      if (!slot) throw notFound('Slot')
      if (slot.user_id === null) return
      const grants = await repo.callingPermissions(trx, callingId)
      assertMaySeat(actor, calling, grants, null)
      const at = this.ctx.clock.iso()
      if (await unseatUser(trx, dialect, { callingId, slotId, grants }, slot.user_id, at)) {
        return record(trx, this.ctx, seatEvent({ by: actor.id, at }, 'slot.release', calling, slotId, slot.user_id))
      }
      // A concurrent release got there first (fine: it is empty), or the slot
      // was released and filled again by someone else (not ours to release).
      const now = await slotRepo.findSlot(trx, callingId, slotId)
      if (now && now.user_id !== null) throw conflict('conflict', 'The slot changed meanwhile; reload and try again')
    })
  }

  /** GET /callings/{id}/history — signed-in callers only (holders' ids and dates). */
  async history(actor: Actor, callingId: number): Promise<CallingHistoryEntry[]> {
    const { db } = this.ctx
    if (!(await repo.findCalling(db, callingId))) throw notFound('Calling')
    return slotRepo.listHistory(db, callingId)
  }
}
