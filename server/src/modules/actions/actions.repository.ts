import { sql } from 'kysely'
import type { ActionKind, ProposalKind, Stage } from '@stake/contract'
import type { Executor } from '../../db/types.ts'
import type { Viewer } from '../proposals/proposals.policy.ts'
import { visibleTo } from '../proposals/proposals.repository.ts'

/** The stages where a manager takes the next step himself (docs/api-reference.md §11). */
const STEP_STAGES = ['sustain', 'set_apart', 'ordain', 'record'] as const satisfies readonly Stage[]

export interface ActionRow {
  kind: ActionKind
  since: string
  proposal_id: number
  fname: string
  lname: string
  proposed_calling: string
  ward_id: number
  stage: Stage
  stage_changed_at: string
  /** The proposal's kind (docs/api-reference.md §18). */
  proposal_kind: ProposalKind
}

export interface ActionScope {
  /** The stages where the caller votes (from his seats). */
  votingStages: readonly Stage[]
  /** Holds proposals.manage: also `assign` and `step`. */
  manager: boolean
}

/**
 * Everything awaiting the viewer, oldest first, in one statement however
 * many proposals there are: one branch per kind of action, each limited to
 * the proposals the viewer may see (the tracker's own visibility rule) and
 * to its stages (proposals_stage_idx). The kinds' stages do not overlap, so
 * a proposal appears at most once.
 */
export async function pendingActions(db: Executor, viewer: Viewer, scope: ActionScope): Promise<ActionRow[]> {
  const proposals = (kind: ActionKind) =>
    db
      .selectFrom('proposals as p')
      .select([
        sql.lit(kind).$castTo<ActionKind>().as('kind'),
        'p.kind as proposal_kind',
        'p.id as proposal_id',
        'p.fname',
        'p.lname',
        'p.proposed_calling',
        'p.ward_id',
        'p.stage',
        'p.stage_changed_at',
      ])
      .where(visibleTo(viewer))

  // An interview assigned to the caller and not yet held; since it was last (re)assigned.
  let query = proposals('interview')
    .innerJoin('proposal_interviews as i', 'i.proposal_id', 'p.id')
    .select('i.updated_at as since')
    .where('p.stage', '=', 'interview')
    .where('i.interviewer_id', '=', viewer.id)
    .where('i.interview_date', 'is', null)

  if (scope.votingStages.length > 0) {
    // A vote at an earlier visit to the same stage still counts (as in the tally).
    query = query.unionAll(
      proposals('vote')
        .select('p.stage_changed_at as since')
        .where('p.stage', 'in', [...scope.votingStages])
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('proposal_votes as v')
                .select('v.id')
                .whereRef('v.proposal_id', '=', 'p.id')
                .whereRef('v.stage', '=', 'p.stage')
                .where('v.approver_id', '=', viewer.id),
            ),
          ),
        ),
    )
  }

  if (scope.manager) {
    query = query
      .unionAll(
        proposals('assign')
          .select('p.stage_changed_at as since')
          .where('p.stage', '=', 'interview')
          .where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom('proposal_interviews as i').select('i.id').whereRef('i.proposal_id', '=', 'p.id'))),
          ),
      )
      .unionAll(
        proposals('step')
          .select('p.stage_changed_at as since')
          .where('p.stage', 'in', [...STEP_STAGES]),
      )
  }

  // Output names only: the ORDER BY of a compound select may not name a table.
  return query.orderBy('since').orderBy('proposal_id').execute()
}
