import type {
  ImportApplied,
  ImportKind,
  ImportMatchAnswer,
  ImportPreview,
  ImportQuery,
  Permission,
} from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { isUniqueViolation } from '../../db/database.ts'
import type { Executor } from '../../db/types.ts'
import { withTransaction } from '../../db/transaction.ts'
import { conflict, forbidden, invalid, notFound } from '../../errors.ts'
import { audited, record } from '../../events/record.ts'
import type { Actor } from '../../actor.ts'
import * as callingsRepo from '../callings/callings.repository.ts'
import * as slotRepo from '../callings/slots.repository.ts'
import { seatEvent, unseatUser } from '../callings/slots.service.ts'
import { unavailableEmails } from '../limits/email-oracle.ts'
import { currentStakeSettings } from '../stakes/stakes.repository.ts'
import { findWard } from '../wards/wards.repository.ts'
import * as repo from './imports.repository.ts'
import { plan, publicChange, type Plan, type PlannedChange } from './plan.ts'
import { assertUnderLimits, oneReadPerStake } from './imports.limits.ts'
import { shownOf, type StoredPreview, type StoredRows } from './imports.stored.ts'
import { readReportOffThread } from './reader.ts'
import type { ReportType } from './tables.ts'
import { wardNamed } from './units.ts'

/** A preview lives 24 hours (docs/api-reference.md §15). */
const PREVIEW_HOURS = 24

const stale = () =>
  conflict('stale_import', 'The stake changed since this preview was made; import the report again to see the changes')

/** Importing LCR reports (docs/api-reference.md §15): read, preview, apply. */
export class ImportsService {
  constructor(private readonly ctx: AppContext) {}

  private assertMayImport(actor: Actor): void {
    if (!actor.permissions.has('users.manage') || !actor.permissions.has('callings.manage')) {
      throw forbidden('Importing needs the users.manage and callings.manage permissions')
    }
  }

  /** POST /imports: reads the report and stores its preview; nothing of the stake changes. */
  async preview(
    actor: Actor,
    query: ImportQuery,
    type: ReportType,
    body: Buffer,
    signal?: AbortSignal,
  ): Promise<ImportPreview> {
    this.assertMayImport(actor)
    const { db, clock } = this.ctx
    const wardId = query.ward_id ?? null
    if (wardId !== null && !(await findWard(db, wardId))) {
      throw notFound('Ward')
    }
    await assertUnderLimits(db, actor.id, clock.now())
    const report = await oneReadPerStake(this.ctx, () => readReportOffThread(body, type, query.kind ?? 'auto', signal))
    const releaseMissing = report.kind === 'callings' && query.release_missing === true
    const input = { kind: report.kind, wardId, releaseMissing, rows: report.rows }
    const taken = await unavailableEmails(
      this.ctx,
      report.rows.map((r) => r.email),
    )
    const snapshot = await repo.loadSnapshot(db, taken)
    const result = plan(input, snapshot, actor, report.problems)
    const stored: StoredPreview = {
      ...this.toStored(report.ignored_columns, result),
      ignored_lines: report.ignored_lines,
      vacant: report.vacant.map((v) => ({
        row: v.row,
        calling: v.calling,
        organization: v.organization,
        // A stake-level report's vacant ward calling is its row's ward's.
        ward_id: wardId ?? wardNamed(snapshot.wards, v.unit)?.id ?? null,
      })),
      rows_total: report.total,
    }
    const now = clock.now()
    const createdAt = now.toISOString()
    const expiresAt = new Date(now.getTime() + PREVIEW_HOURS * 3600_000).toISOString()
    const { id } = await repo.insertImport(db, {
      created_by: actor.id,
      kind: report.kind,
      ward_id: wardId,
      release_missing: releaseMissing,
      rows: JSON.stringify({
        rows: report.rows,
        problems: report.problems,
        vacant: report.vacant,
      } satisfies StoredRows),
      preview: JSON.stringify(stored),
      created_at: createdAt,
      expires_at: expiresAt,
    })
    return {
      id,
      kind: report.kind,
      ward_id: wardId,
      release_missing: releaseMissing,
      status: 'preview',
      created_at: createdAt,
      expires_at: expiresAt,
      ...shownOf(stored),
    }
  }

  private toStored(ignored: string[], result: Plan): StoredPreview {
    return {
      ignored_columns: ignored,
      summary: result.summary,
      changes: result.changes.map(publicChange),
      problems: result.problems,
    }
  }

  /** GET /imports/{id}: the importer's own preview; anyone else's, or an expired one, is not found. */
  async get(actor: Actor, id: number): Promise<ImportPreview> {
    this.assertMayImport(actor)
    const row = await repo.findOwnImport(this.ctx.db, id, actor.id, this.ctx.clock.iso())
    if (!row) throw notFound('Import')
    return {
      id: row.id,
      kind: row.kind,
      ward_id: row.ward_id ?? null,
      release_missing: Boolean(row.release_missing),
      status: row.status,
      created_at: row.created_at,
      expires_at: row.expires_at,
      ...shownOf(JSON.parse(row.preview) as StoredPreview),
    }
  }

  /**
   * POST /imports/{id}/apply: the preview's changes in one transaction. The
   * plan is computed again from the stored rows inside the transaction; when
   * it differs from the preview, something the preview relied on changed
   * (409 stale_import). Applied once (409 already_applied after).
   */
  async apply(actor: Actor, id: number): Promise<ImportApplied> {
    this.assertMayImport(actor)
    const { db } = this.ctx
    const found = await repo.findOwnImport(db, id, actor.id, this.ctx.clock.iso())
    if (!found) throw notFound('Import')
    if (found.status === 'applied') throw conflict('already_applied', 'This import was applied already')
    const stored = JSON.parse(found.rows) as StoredRows
    const shown = JSON.parse(found.preview) as StoredPreview
    const input = {
      kind: found.kind as ImportKind,
      wardId: found.ward_id ?? null,
      releaseMissing: Boolean(found.release_missing),
      rows: stored.rows,
      decisions: stored.decisions ?? {},
    }
    if (shown.changes.some((c) => c.action === 'confirm')) {
      throw conflict(
        'confirm_pending',
        'Some people of the report may be users of the stake already: confirm or reject each possible match first',
      )
    }
    const taken = await unavailableEmails(
      this.ctx,
      stored.rows.map((r) => r.email),
    )
    try {
      return await withTransaction(db, async (trx) => {
        const now = this.ctx.clock.iso()
        if (!(await repo.markApplied(trx, id, now))) {
          throw conflict('already_applied', 'This import was applied already')
        }
        const result = plan(input, await repo.loadSnapshot(trx, taken), actor, stored.problems)
        if (JSON.stringify(result.changes.map(publicChange)) !== JSON.stringify(shown.changes)) throw stale()
        await this.execute(trx, actor, result, now)
        await record(
          trx,
          this.ctx,
          audited({ by: actor.id, at: now }, 'import.apply', null, {
            import_id: id,
            kind: input.kind,
            ward_id: input.wardId,
            users_created: result.summary.users.create,
            users_updated: result.summary.users.update,
            callings_created: result.summary.callings.create,
            slots_filled: result.summary.slots.fill,
            slots_released: result.summary.slots.release,
            rows_skipped: result.summary.skipped,
          }),
        )
        return { summary: result.summary }
      })
    } catch (error) {
      // An email taken meanwhile (by another stake's user), a calling created meanwhile.
      if (isUniqueViolation(error)) throw stale()
      throw error
    }
  }

  /**
   * POST /imports/{id}/matches: the importer's answer to a possible match.
   * Accepted, the report's person is that user; rejected, a new person. The
   * preview is worked out again with every answer so far.
   */
  async answerMatch(actor: Actor, id: number, answer: ImportMatchAnswer): Promise<ImportPreview> {
    this.assertMayImport(actor)
    const { db } = this.ctx
    const found = await repo.findOwnImport(db, id, actor.id, this.ctx.clock.iso())
    if (!found) throw notFound('Import')
    if (found.status === 'applied') throw conflict('already_applied', 'This import was applied already')
    const stored = JSON.parse(found.rows) as StoredRows
    const shown = JSON.parse(found.preview) as StoredPreview
    if (!shown.changes.some((c) => c.row === answer.row && c.target === 'user' && c.candidate)) {
      throw invalid(['body', 'row'], `Row ${answer.row} has no possible match to confirm or reject`)
    }
    const decisions = { ...stored.decisions, [answer.row]: answer.accept ? ('accept' as const) : ('reject' as const) }
    const input = {
      kind: found.kind as ImportKind,
      wardId: found.ward_id ?? null,
      releaseMissing: Boolean(found.release_missing),
      rows: stored.rows,
      decisions,
    }
    const taken = await unavailableEmails(
      this.ctx,
      stored.rows.map((r) => r.email),
    )
    const result = plan(input, await repo.loadSnapshot(db, taken), actor, stored.problems)
    const next: StoredPreview = { ...shown, ...this.toStored(shown.ignored_columns, result) }
    await repo.updatePreview(db, id, JSON.stringify({ ...stored, decisions }), JSON.stringify(next))
    return this.get(actor, id)
  }

  /** Carries out a plan inside the caller's transaction: callings, people, releases, then fills. */
  private async execute(trx: Executor, actor: Actor, result: Plan, now: string) {
    const who = { by: actor.id, at: now }
    const callingIds = new Map<string, number>()
    const userIds = new Map<number, number>()
    const { language } = await currentStakeSettings(trx)

    for (const c of result.changes) {
      if (c.target !== 'calling' || c.action !== 'create') continue
      const row = await callingsRepo.insertCalling(trx, { name: c.calling!, is_public: false, max_slots: 0, now })
      callingIds.set(c.calling!, row.id)
      const facts = { name: row.name, is_public: false, max_slots: 0, permissions: [] as Permission[] }
      await record(trx, this.ctx, audited(who, 'calling.create', { type: 'calling', id: row.id }, facts))
    }

    // New people in a few multi-row inserts (ids come in the order of the rows).
    const creates = result.changes.filter((c) => c.target === 'user' && c.action === 'create')
    const created = await repo.insertPeople(
      trx,
      creates.map((c) => ({
        email: c.email ?? null,
        fname: c.fname!,
        lname: c.lname!,
        phone: c.phone ?? null,
        ward_id: c.ward_id ?? null,
      })),
      language,
      now,
    )
    for (const [i, c] of creates.entries()) {
      const row = created[i]!
      userIds.set(c.person!, row.id)
      const facts = { email: row.email ?? null, fname: row.fname, lname: row.lname }
      await record(trx, this.ctx, audited(who, 'user.create', { type: 'user', id: row.id }, facts))
    }
    for (const c of result.changes) {
      if (c.target !== 'user' || c.action === 'create') continue
      userIds.set(c.person!, c.user_id!)
      if (c.action !== 'update' || !c.changes) continue
      await repo.updatePerson(trx, c.user_id!, c.changes, c.ward_id, now)
      await record(trx, this.ctx, audited(who, 'user.update', { type: 'user', id: c.user_id! }, { changes: c.changes }))
    }

    const grantsOf = async (callingId: number) => callingsRepo.callingPermissions(trx, callingId)
    const release = async (c: PlannedChange, holder: number) => {
      const slot = { callingId: c.calling_id!, slotId: c.slot_id!, grants: await grantsOf(c.calling_id!) }
      if (!(await unseatUser(trx, this.ctx.dialect, slot, holder, now))) throw stale()
      const calling = { id: c.calling_id!, name: c.calling! }
      await record(trx, this.ctx, seatEvent(who, 'slot.release', calling, c.slot_id!, holder))
    }
    for (const c of result.changes) {
      if (c.target !== 'slot') continue
      if (c.action === 'release') await release(c, c.user_id!)
      if (c.action === 'fill' && c.released_user_id) await release(c, c.released_user_id)
      // A kept seat: only its set apart, as the report tells it.
      if (c.action === 'update' && c.set_apart) {
        if (!(await slotRepo.setSlotSetApart(trx, c.calling_id!, c.slot_id!, c.user_id!, c.set_apart))) throw stale()
      }
    }

    const fills = result.changes.filter((c) => c.target === 'slot' && c.action === 'fill')
    const callingOf = (c: PlannedChange) => c.calling_id ?? callingIds.get(c.calling!)!
    // The seats the import adds, one insert per report.
    await repo.insertSlots(
      trx,
      fills
        .filter((c) => c.new_slot)
        .map((c) => ({ calling_id: callingOf(c), slot_id: c.slot_id!, ward_id: c.ward_id ?? null })),
    )
    const tops = new Map<number, number>()
    for (const c of fills) {
      const callingId = callingOf(c)
      const userId = c.user_id ?? userIds.get(c.person!)!
      if (c.new_slot) tops.set(callingId, Math.max(tops.get(callingId) ?? 0, c.slot_id!))
      // The sustained date is when the holding began, unless it lies ahead.
      const sustained = c.sustained ? `${c.sustained}T00:00:00.000Z` : null
      const from = sustained && sustained < now ? sustained : now
      // The plan checked the person is active in this transaction; the conditional write decides the seat.
      if (!(await slotRepo.fillEmptySlot(trx, callingId, c.slot_id!, userId, from, c.set_apart ?? null))) throw stale()
      await slotRepo.openHistory(trx, callingId, c.slot_id!, userId, from)
      await record(trx, this.ctx, seatEvent(who, 'slot.fill', { id: callingId, name: c.calling! }, c.slot_id!, userId))
    }
    for (const [callingId, top] of tops) {
      const calling = await callingsRepo.findCalling(trx, callingId)
      if (calling && calling.max_slots < top) await callingsRepo.setMaxSlots(trx, callingId, top)
    }
  }
}
