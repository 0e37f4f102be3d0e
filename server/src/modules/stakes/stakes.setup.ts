import type { StakeSetup } from '@stake/contract'
import { SETUP_PERMISSIONS } from '@stake/contract/permissions'
import type { Actor } from '../../actor.ts'
import type { AppContext } from '../../context.ts'
import type { Executor } from '../../db/types.ts'
import { forbidden } from '../../errors.ts'
import { listPendingInvitations } from '../accounts/tokens.repository.ts'
import { loadViewer } from '../proposals/proposals.access.ts'
import type { Viewer } from '../proposals/proposals.policy.ts'
import { visibleTo, votingSeatHolders } from '../proposals/proposals.repository.ts'
import { listWards } from '../wards/wards.repository.ts'
import { StakeSettingsService } from './stakes.settings.ts'

/** Someone besides `userId` can reach the service: active, signed in with a password of their own, none to change. */
async function someoneElseSignedIn(db: Executor, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '!=', userId)
    .where('active', '=', true)
    .where('password_hash', 'is not', null)
    .where('force_password_reset', '=', false)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/** A proposal the viewer can see exists (the board's visibility rule). */
async function anyProposalSeenBy(db: Executor, viewer: Viewer): Promise<boolean> {
  const row = await db.selectFrom('proposals as p').select('p.id').where(visibleTo(viewer)).limit(1).executeTakeFirst()
  return row !== undefined
}

/**
 * GET /stake/setup: a new stake's first steps, each decided from the data
 * (StakeSetup). People imported from LCR alone (no password) do not count as
 * someone else; the proposal is one the caller can see (S9), as on the board.
 */
export async function stakeSetup(ctx: AppContext, actor: Actor): Promise<StakeSetup> {
  if (!SETUP_PERMISSIONS.every((p) => actor.permissions.has(p))) {
    throw forbidden('Only someone who may manage wards, callings and users and submit proposals sees the first steps')
  }
  const { db } = ctx
  const viewer = await loadViewer(ctx, actor)
  const [stake, wards, holders, invitations, signedIn, proposal] = await Promise.all([
    new StakeSettingsService(ctx).get(),
    listWards(db),
    votingSeatHolders(db),
    listPendingInvitations(db),
    someoneElseSignedIn(db, actor.id),
    anyProposalSeenBy(db, viewer),
  ])
  const voters = (council: boolean) =>
    new Set(holders.filter((h) => (h.key === 'high_councilor') === council).map((h) => h.id)).size
  return {
    stake: stake.settings_saved === true,
    wards: wards.length > 0 && wards.every((w) => w.bishop_id != null),
    seats: voters(false) >= stake.sp_approvals_required && voters(true) >= stake.hc_approvals_required,
    users: invitations.length > 0 || signedIn,
    proposal,
  }
}
