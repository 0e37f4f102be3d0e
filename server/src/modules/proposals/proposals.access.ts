import type { AppContext } from '../../context.ts'
import type { Executor } from '../../db/types.ts'
import { notFound } from '../../errors.ts'
import type { Actor } from '../../plugins/auth.ts'
import { canSee, type Viewer } from './proposals.policy.ts'
import { findProposal, rolesOf, type ProposalRow } from './proposals.repository.ts'

/** The caller as the tracker sees them: permissions plus the seats they fill. */
export async function loadViewer(ctx: AppContext, actor: Actor): Promise<Viewer> {
  return { id: actor.id, permissions: actor.permissions, roles: await rolesOf(ctx.db, actor.id) }
}

/** The proposal if the viewer may see it; absent and invisible are both 404 (contract §7). */
export async function visibleProposal(db: Executor, viewer: Viewer, id: number): Promise<ProposalRow> {
  const row = await findProposal(db, id)
  if (!row || !canSee(viewer, row)) throw notFound('Proposal')
  return row
}

export const proposalNotFound = () => notFound('Proposal')
