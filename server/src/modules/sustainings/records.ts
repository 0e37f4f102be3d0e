import type { Permission } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { Executor } from '../../db/types.ts'
import { conflict } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import { callingPermissions, lockCalling } from '../callings/callings.repository.ts'
import { assertMaySeat, seatUser, unseatUser } from '../callings/slots.service.ts'
import { heldSlot, vacantSlot } from '../callings/seats.repository.ts'
import { findProposal, parseReleases, type ProposalRow } from '../proposals/proposals.repository.ts'
import { setApartDay } from '../proposals/history.repository.ts'

/**
 * What recording a proposal does to the roster (docs/api-reference.md §12), inside the
 * transaction that moves it from `record` to `done`:
 * - each release with `calling_id` and `user_id` (and a release proposal's
 *   own link) empties that user's slot in that calling;
 * - a call with `calling_id` and `user_id` then seats the user in a vacant
 *   slot of the calling (409 no_vacancy when there is none), set apart on
 *   the day its set apart step gave.
 * S3 applies to each seat: the actor must hold what it carries. Releases
 * come first, so releasing and calling in one calling's only slot works. A
 * released person who no longer holds the slot is already released: nothing
 * to do. Locks follow the documented order: callings (share), then their
 * slots, before the caller's move of the proposal row.
 */
async function applyRecord(trx: Executor, ctx: AppContext, actor: Actor, proposal: ProposalRow): Promise<void> {
  const unseat = parseReleases(proposal.releases)
    .filter((r) => r.calling_id != null && r.user_id != null)
    .map((r) => ({ callingId: r.calling_id!, userId: r.user_id! }))
  const linked = proposal.calling_id !== null && proposal.user_id !== null
  if (linked && proposal.is_release) unseat.push({ callingId: proposal.calling_id!, userId: proposal.user_id! })
  // docs/api-reference.md §18: an ordination confers an office, not a calling: it seats nobody.
  const seat =
    linked && proposal.kind === 'call' ? { callingId: proposal.calling_id!, userId: proposal.user_id! } : null
  if (unseat.length === 0 && !seat) return

  const now = ctx.clock.iso()
  const ids = [...new Set([...unseat.map((u) => u.callingId), ...(seat ? [seat.callingId] : [])])].sort((a, b) => a - b)
  const callings = new Map<number, { key: string | null; grants: Permission[] }>()
  for (const id of ids) {
    const calling = await lockCalling(trx, id, ctx.dialect, 'share')
    if (calling) callings.set(id, { key: calling.key, grants: await callingPermissions(trx, id) })
  }

  for (const { callingId, userId } of unseat) {
    const calling = callings.get(callingId)
    if (!calling) continue
    const held = await heldSlot(trx, callingId, userId)
    if (!held) continue
    assertMaySeat(actor, calling, calling.grants, null)
    const slot = { callingId, slotId: held.slot_id, grants: calling.grants }
    if (!(await unseatUser(trx, ctx.dialect, slot, userId, now)))
      throw conflict('conflict', 'A slot changed meanwhile; reload and try again')
  }

  if (seat) {
    const calling = callings.get(seat.callingId)
    if (!calling) throw noVacancy()
    assertMaySeat(actor, calling, calling.grants, seat.userId)
    // A Bishop calling has one slot per ward: the proposal's ward's.
    const vacant = await vacantSlot(trx, seat.callingId, calling.key === 'bishop' ? proposal.ward_id : null)
    if (!vacant) throw noVacancy()
    // The seat keeps the day its new holder was set apart (the step's date), as an LCR report would say it.
    const setApart = await setApartDay(trx, proposal.id)
    const slot = { callingId: seat.callingId, slotId: vacant.slot_id }
    await seatUser(trx, slot, seat.userId, now, ['body', 'user_id'], setApart)
  }
}

const noVacancy = () => conflict('no_vacancy', 'The calling has no vacant slot; release someone first')

/** applyRecord for the proposal as it is in this transaction (nothing when it is gone: the move then loses). */
export async function recordOnRoster(trx: Executor, ctx: AppContext, actor: Actor, proposalId: number): Promise<void> {
  const proposal = await findProposal(trx, proposalId)
  if (proposal && proposal.stage === 'record') await applyRecord(trx, ctx, actor, proposal)
}
