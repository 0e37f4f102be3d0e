import { Type, type Static } from 'typebox'
import { Id, Timestamp } from './common.ts'
import { ProposalKindName, StageName } from './proposals.ts'

/** What awaits the caller (docs/api-reference.md §11, GET /actions). */

export const ACTION_KINDS = ['vote', 'interview', 'assign', 'step'] as const
export type ActionKind = (typeof ACTION_KINDS)[number]

/** The proposal an action is about: what a list entry needs, no more. */
export const ActionProposal = Type.Object({
  id: Id,
  fname: Type.String(),
  lname: Type.String(),
  proposed_calling: Type.String(),
  ward_id: Id,
  stage: StageName,
  stage_changed_at: Timestamp,
  /** call, release or ordination (docs/api-reference.md §18). */
  kind: ProposalKindName,
})
export type ActionProposal = Static<typeof ActionProposal>

export const ActionItem = Type.Object({
  /**
   * `vote`: the caller votes at this stage and has not yet; `interview`: an
   * interview assigned to the caller, not completed; `assign` (managers): at
   * `interview` without an interviewer; `step` (managers): at `sustain`,
   * `set_apart`, `ordain` or `record`.
   */
  kind: Type.Union([Type.Literal('vote'), Type.Literal('interview'), Type.Literal('assign'), Type.Literal('step')]),
  proposal: ActionProposal,
  /** When the item began: the stage change, or the interview's assignment. */
  since: Timestamp,
})
export type ActionItem = Static<typeof ActionItem>

/** Oldest first; `count` is the number of items. */
export const Actions = Type.Object({
  count: Type.Integer({ minimum: 0 }),
  items: Type.Array(ActionItem),
})
export type Actions = Static<typeof Actions>
