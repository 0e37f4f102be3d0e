import type { Proposal } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { Executor } from '../../db/types.ts'
import { notFound } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import { canSee, type Viewer } from './proposals.policy.ts'
import { findProposal, findProposalView, rolesOf, type ProposalRow } from './proposals.repository.ts'

/** The caller as the tracker sees them: permissions plus the seats they fill. */
export async function loadViewer(ctx: AppContext, actor: Actor): Promise<Viewer> {
  return { id: actor.id, permissions: actor.permissions, roles: await rolesOf(ctx.db, actor.id) }
}

/** The proposal if the viewer may see it; absent and invisible are both 404 (docs/api-reference.md §7). */
export async function visibleProposal(db: Executor, viewer: Viewer, id: number): Promise<ProposalRow> {
  const row = await findProposal(db, id)
  if (!row || !canSee(viewer, row)) throw notFound('Proposal')
  return row
}

export const proposalNotFound = () => notFound('Proposal')

/** The proposal in its API shape as this viewer sees it (counts, my_vote, interview); 404 when absent or invisible. */
export async function proposalView(db: Executor, viewer: Viewer, id: number): Promise<Proposal> {
  const proposal = await findProposalView(db, viewer, id)
  if (!proposal) throw proposalNotFound()
  return proposal
}
