import type { StakeSetup } from '@stake/contract'
import { SETUP_PERMISSIONS } from '@stake/contract/permissions'
import type { Actor } from '../../actor.ts'
import type { AppContext } from '../../context.ts'
import { stakeIdOf } from '../../db/stake-scope.ts'
import type { Executor } from '../../db/types.ts'
import { forbidden } from '../../errors.ts'
import { listPendingInvitations } from '../accounts/tokens.repository.ts'
import { loadViewer } from '../proposals/proposals.access.ts'
import { listProposalViews, votingSeatHolders } from '../proposals/proposals.repository.ts'
import { listWards } from '../wards/wards.repository.ts'
import { currentStakeSettings, settingsSaved } from './stakes.repository.ts'

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
  const [saved, wards, holders, settings, invitations, signedIn, proposals] = await Promise.all([
    settingsSaved(db, stakeIdOf(db)),
    listWards(db),
    votingSeatHolders(db),
    currentStakeSettings(db),
    listPendingInvitations(db),
    someoneElseSignedIn(db, actor.id),
    listProposalViews(db, viewer, {}, 1, 0),
  ])
  const voters = (council: boolean) =>
    new Set(holders.filter((h) => (h.key === 'high_councilor') === council).map((h) => h.id)).size
  return {
    stake: saved,
    wards: wards.length > 0 && wards.every((w) => w.bishop_id != null),
    seats: voters(false) >= settings.sp_approvals_required && voters(true) >= settings.hc_approvals_required,
    users: invitations.length > 0 || signedIn,
    proposal: proposals.total > 0,
  }
}
