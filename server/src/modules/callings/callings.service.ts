import type { Calling, CallingListQuery, CreateCallingBody, Permission, UpdateCallingBody } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { isUniqueViolation } from '../../db/database.ts'
import type { Executor } from '../../db/types.ts'
import { AppError, conflict, forbidden, notFound } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import { sortPermissions } from '../users/permissions.repository.ts'
import { ungrantable } from '../users/users.policy.ts'
import * as repo from './callings.repository.ts'
import * as slotRepo from './slots.repository.ts'
import { canSeeCalling, isSystemDefined } from './callings.policy.ts'
import { assertUserManagerRemains } from '../users/last-manager.ts'
import { withTransaction } from '../../db/transaction.ts'
import { audited, record } from '../../events/record.ts'
import { fieldChanges, grantChanges } from '../../events/facts.ts'

const duplicateName = () => conflict('duplicate_name', 'A calling with this name already exists')
const systemDefined = () => new AppError(403, 'system_defined', 'System-defined callings cannot be modified')
const filledSlots = () => conflict('slot_filled', 'A slot of this calling is filled; release it first')

/** Nobody can give a calling a permission they do not hold (docs/api-reference.md §4). */
function assertMayGrant(actor: Actor, current: readonly Permission[], next: readonly Permission[]): void {
  const refused = ungrantable(actor.permissions, current, next)
  if (refused.length > 0) throw forbidden(`You cannot grant a permission you do not hold: ${refused.join(', ')}`)
}

/** What a calling update changed, for its audit entry (null: nothing). */
function callingChanges(before: repo.CallingRow, after: repo.CallingRow) {
  const plain = (row: repo.CallingRow) => ({
    name: row.name,
    is_public: Boolean(row.is_public),
    max_slots: row.max_slots,
  })
  return fieldChanges(plain(before), plain(after), ['name', 'is_public', 'max_slots'])
}

export class CallingsService {
  constructor(private readonly ctx: AppContext) {}

  private async present(db: Executor, row: repo.CallingRow, anonymous: boolean): Promise<Calling> {
    const { permissions, slots } = await repo.loadDetails(db, [row.id])
    return repo.toCalling(row, permissions.get(row.id)!, slots.get(row.id)!, anonymous)
  }

  /** GET /callings/ — anonymous callers: public callings only, holders' names only. */
  async list(actor: Actor | null, query: CallingListQuery): Promise<{ rows: Calling[]; total: number }> {
    const anonymous = actor === null
    if (anonymous && query.is_public === false) return { rows: [], total: 0 }
    const filter = {
      q: query.q,
      is_public: anonymous ? true : query.is_public,
      system_defined: query.system_defined,
      vacant: query.vacant,
    }
    const { db } = this.ctx
    const page = await repo.listCallings(db, filter, query.sort ?? 'name', query.limit ?? 50, query.offset ?? 0)
    const { permissions, slots } = await repo.loadDetails(
      db,
      page.rows.map((r) => r.id),
    )
    return {
      rows: page.rows.map((r) => repo.toCalling(r, permissions.get(r.id)!, slots.get(r.id)!, anonymous)),
      total: page.total,
    }
  }

  async get(actor: Actor | null, id: number): Promise<Calling> {
    const row = await repo.findCalling(this.ctx.db, id)
    if (!row || !canSeeCalling(actor === null, row)) throw notFound('Calling')
    return this.present(this.ctx.db, row, actor === null)
  }

  async create(actor: Actor, body: CreateCallingBody): Promise<Calling> {
    const permissions = sortPermissions(new Set(body.permissions ?? []))
    assertMayGrant(actor, [], permissions)
    const maxSlots = body.max_slots ?? 1
    try {
      return await withTransaction(this.ctx.db, async (trx) => {
        const row = await repo.insertCalling(trx, {
          name: body.name,
          is_public: body.is_public ?? false,
          max_slots: maxSlots,
          now: this.ctx.clock.iso(),
        })
        await repo.replaceCallingPermissions(trx, row.id, permissions)
        await slotRepo.ensureSlots(trx, row.id, maxSlots)
        const facts = { name: row.name, is_public: Boolean(row.is_public), max_slots: maxSlots, permissions }
        await record(
          trx,
          this.ctx,
          audited({ by: actor.id, at: row.created_at }, 'calling.create', { type: 'calling', id: row.id }, facts),
        )
        return this.present(trx, row, false)
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName()
      throw error
    }
  }

  /**
   * PUT /callings/{id}: name, is_public, max_slots and (optionally)
   * permissions; omitted optional fields stay as they are. The calling row is
   * locked first so no fill can land in a slot that is being removed.
   */
  async update(actor: Actor, id: number, body: UpdateCallingBody): Promise<Calling> {
    const { db, dialect } = this.ctx
    try {
      return await withTransaction(db, async (trx) => {
        const current = await repo.lockCalling(trx, id, dialect, 'update')
        if (!current) throw notFound('Calling')
        if (isSystemDefined(current)) throw systemDefined()
        if (body.permissions !== undefined)
          assertMayGrant(actor, await repo.callingPermissions(trx, id), body.permissions)
        const maxSlots = body.max_slots ?? current.max_slots
        if ((await slotRepo.highestFilledSlot(trx, id)) > maxSlots) {
          throw conflict('slot_filled', `A slot numbered above ${maxSlots} is filled; release it first`)
        }
        await slotRepo.deleteEmptySlotsAbove(trx, id, maxSlots)
        await slotRepo.ensureSlots(trx, id, maxSlots)
        // After the slots: the last-manager check's lock comes last (ARCHITECTURE.md, Lock order).
        if (body.permissions !== undefined) await this.replaceGrants(trx, actor, current, body.permissions)
        const row = await repo.updateCalling(trx, id, {
          name: body.name,
          is_public: body.is_public ?? Boolean(current.is_public),
          max_slots: maxSlots,
          now: this.ctx.clock.iso(),
        })
        const changes = callingChanges(current, row)
        if (changes)
          await record(
            trx,
            this.ctx,
            audited(
              { by: actor.id, at: row.updated_at },
              'calling.update',
              { type: 'calling', id },
              { name: row.name, changes },
            ),
          )
        return this.present(trx, row, false)
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName()
      throw error
    }
  }

  /** DELETE /callings/{id}: user-made and with no filled slot (docs/api-reference.md §5). */
  async remove(actor: Actor, id: number): Promise<void> {
    const { db, dialect } = this.ctx
    await withTransaction(db, async (trx) => {
      const current = await repo.lockCalling(trx, id, dialect, 'update')
      if (!current) throw notFound('Calling')
      if (isSystemDefined(current)) throw systemDefined()
      if (!(await repo.deleteUnfilledCalling(trx, id))) throw filledSlots()
      const who = { by: actor.id, at: this.ctx.clock.iso() }
      await record(trx, this.ctx, audited(who, 'calling.delete', { type: 'calling', id }, { name: current.name }))
    })
  }

  /** GET /callings/{id}/permissions — visible like the calling itself. */
  async getPermissions(actor: Actor | null, id: number): Promise<{ permissions: Permission[] }> {
    const row = await repo.findCalling(this.ctx.db, id)
    if (!row || !canSeeCalling(actor === null, row)) throw notFound('Calling')
    return { permissions: await repo.callingPermissions(this.ctx.db, id) }
  }

  /** PUT /callings/{id}/permissions — user-made callings only. */
  async setPermissions(actor: Actor, id: number, next: Permission[]): Promise<{ permissions: Permission[] }> {
    const { db, dialect } = this.ctx
    return withTransaction(db, async (trx) => {
      const current = await repo.lockCalling(trx, id, dialect, 'update')
      if (!current) throw notFound('Calling')
      if (isSystemDefined(current)) throw systemDefined()
      const permissions = await this.replaceGrants(trx, actor, current, next)
      await repo.touchCalling(trx, id, this.ctx.clock.iso())
      return { permissions }
    })
  }

  /**
   * Replaces a calling's grants: adding one the actor lacks is 403; taking
   * users.manage away must leave someone able to manage users (409).
   */
  private async replaceGrants(
    trx: Executor,
    actor: Actor,
    calling: { id: number; name: string },
    next: readonly Permission[],
  ): Promise<Permission[]> {
    const id = calling.id
    const current = await repo.callingPermissions(trx, id)
    assertMayGrant(actor, current, next)
    const wanted = sortPermissions(new Set(next))
    await repo.replaceCallingPermissions(trx, id, wanted)
    const grants = grantChanges(current, wanted)
    const who = { by: actor.id, at: this.ctx.clock.iso() }
    if (grants)
      await record(
        trx,
        this.ctx,
        audited(who, 'calling.grants_change', { type: 'calling', id }, { name: calling.name, ...grants }),
      )
    if (current.includes('users.manage') && !wanted.includes('users.manage')) {
      await assertUserManagerRemains(trx, this.ctx.dialect, await slotRepo.holderIds(trx, id))
    }
    return wanted
  }
}
