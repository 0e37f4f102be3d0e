import type { Actions, Stage } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { Actor } from '../../actor.ts'
import { loadViewer } from '../proposals/proposals.access.ts'
import { canManage, voteCheck } from '../proposals/proposals.policy.ts'
import { pendingActions, type ActionRow } from './actions.repository.ts'

/** The stages where these seats vote, by the same rule that admits a vote. */
const votingStagesOf = (roles: Parameters<typeof voteCheck>[0]): Stage[] =>
  (['sp_approval', 'hc_approval'] as const).filter((stage) => voteCheck(roles, stage) === 'ok')

const toItem = (row: ActionRow) => ({
  kind: row.kind,
  since: row.since,
  proposal: {
    id: row.proposal_id,
    fname: row.fname,
    lname: row.lname,
    proposed_calling: row.proposed_calling,
    ward_id: row.ward_id,
    stage: row.stage,
    stage_changed_at: row.stage_changed_at,
    kind: row.proposal_kind,
  },
})

/** What awaits the caller now (docs/api-reference.md §11), computed live from the tracker's tables. */
export class ActionsService {
  constructor(private readonly ctx: AppContext) {}

  async list(actor: Actor): Promise<Actions> {
    const viewer = await loadViewer(this.ctx, actor)
    const rows = await pendingActions(this.ctx.db, viewer, {
      votingStages: votingStagesOf(viewer.roles),
      manager: canManage(viewer),
    })
    return { count: rows.length, items: rows.map(toItem) }
  }
}
