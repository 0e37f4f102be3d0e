import {
  isClosedStage,
  isOpenStage,
  kindOf,
  presidencyStages,
  stagePath,
  type Permission,
  type ProposalKind,
  type Stage,
} from '@stake/contract'

/**
 * Pure rules of the proposal tracker (docs/api-reference.md §7). Services load the facts
 * (permissions, seats held, the proposal) and ask these functions.
 */

// ---------------------------------------------------------------- stages

/** A proposal's own path (the contract package defines both). */
const pathOf = stagePath

export const initialStage = (kind: ProposalKind | boolean): Stage => pathOf(kind)[0]!

export { kindOf }

export const isClosed = isClosedStage
export const isOpen = isOpenStage

/**
 * The stage one step forward or back along the proposal's own path, or null
 * when there is none: `done` and `declined` are terminal, the first stage has
 * nothing before it, and a stage off the path (set_apart for a release or an
 * ordination) has no neighbours.
 */
export function neighbourStage(
  stage: Stage,
  kind: ProposalKind | boolean,
  direction: 'advance' | 'revert',
): Stage | null {
  if (isClosed(stage)) return null
  const path = pathOf(kind)
  const i = path.indexOf(stage)
  if (i < 0) return null
  return path[direction === 'advance' ? i + 1 : i - 1] ?? null
}

/** What a move does to the interview (docs/api-reference.md §7 and docs/decisions.md). */
export function interviewEffect(from: Stage, to: Stage, kind: ProposalKind | boolean): 'none' | 'delete' | 'reopen' {
  const path = pathOf(kind)
  // Declining keeps the interview as part of the record.
  if (!path.includes(to) || !path.includes(from)) return 'none'
  if (path.indexOf(to) > path.indexOf(from)) return 'none'
  // Moving off `interview` backwards clears the interview (docs/api-reference.md §7).
  if (from === 'interview') return 'delete'
  // Back to `interview` from the stage after it: the interview is to be held again,
  // so it keeps its interviewer and plan but is no longer completed.
  if (to === 'interview') return 'reopen'
  return 'none'
}

// ---------------------------------------------------------------- roles

/** Seats that matter here, from calling_slots joined to callings.key. */
export interface Roles {
  /** Holds stake_president, stake_first_counselor or stake_second_counselor. */
  presidency: boolean
  /** Holds a high_councilor slot. */
  highCouncilor: boolean
  /** The wards whose bishop slot the user fills. */
  bishopWardIds: number[]
}

export const PRESIDENCY_KEYS = ['stake_president', 'stake_first_counselor', 'stake_second_counselor'] as const
export const ROLE_KEYS = [...PRESIDENCY_KEYS, 'high_councilor', 'bishop'] as const

export function rolesFromSeats(seats: readonly { key: string | null; ward_id: number | null }[]): Roles {
  const presidency = new Set<string>(PRESIDENCY_KEYS)
  return {
    presidency: seats.some((s) => s.key !== null && presidency.has(s.key)),
    highCouncilor: seats.some((s) => s.key === 'high_councilor'),
    bishopWardIds: [...new Set(seats.filter((s) => s.key === 'bishop' && s.ward_id !== null).map((s) => s.ward_id!))],
  }
}

export interface Viewer {
  id: number
  permissions: ReadonlySet<Permission>
  roles: Roles
}

export const canManage = (viewer: Viewer): boolean => viewer.permissions.has('proposals.manage')

/** proposals.view or proposals.manage: not bound to one ward when submitting. */
const stakeWide = (viewer: Viewer): boolean => viewer.permissions.has('proposals.view') || canManage(viewer)

/** Who sees proposals at sp_approval besides their submitter and bishop (S9): the presidency and managers. */
const seesPresidencyStage = (viewer: Viewer): boolean => viewer.roles.presidency || canManage(viewer)

/**
 * A manager sees everything, as does a presidency member holding
 * proposals.view; proposals.view alone (the high council) sees a proposal
 * only from hc_approval on (S9).
 */
export const seesAll = (viewer: Viewer): boolean =>
  canManage(viewer) || (viewer.permissions.has('proposals.view') && viewer.roles.presidency)

// ---------------------------------------------------------------- proposals

export interface ProposalFacts {
  submitter: number
  ward_id: number
  stage: Stage
  /** The stage a declined proposal was declined at (null otherwise). */
  declined_from?: Stage | null
  /** 'ward' when absent (docs/api-reference.md §12). */
  scope?: string
  /** docs/api-reference.md §18; absent: a call (or a release by is_release). */
  kind?: string | null
  is_release?: boolean | number | null
}

/**
 * Stages at which a stake-scope proposal is every bishop's to see
 * (docs/api-reference.md §12: each ward presents it); a proposal declined at one
 * of them stays so.
 */
export const STAKE_PRESENTED_STAGES = [
  'sustain',
  'set_apart',
  'ordain',
  'record',
  'done',
] as const satisfies readonly Stage[]

/** A stake-scope proposal from sustain on, seen by a bishop of any ward (docs/api-reference.md §12). */
const seenByEveryBishop = (proposal: Pick<ProposalFacts, 'stage' | 'declined_from' | 'scope'>): boolean =>
  proposal.scope === 'stake' &&
  (STAKE_PRESENTED_STAGES as readonly Stage[]).includes(proposal.declined_from ?? proposal.stage)

/**
 * A proposal at sp_approval, or declined there, is the presidency's (S9); so
 * is an ordination at its interview, which comes before the high council's
 * vote (docs/api-reference.md §18: the high council sees it from hc_approval on).
 */
const atPresidencyStage = (proposal: Pick<ProposalFacts, 'stage' | 'declined_from' | 'kind' | 'is_release'>): boolean =>
  presidencyStages(kindOf(proposal)).includes(proposal.declined_from ?? proposal.stage)

/**
 * docs/api-reference.md §7 and S9: the submitter and the ward's bishop always; a manager
 * always; the presidency at sp_approval; proposals.view from hc_approval on;
 * every bishop a stake-scope proposal from sustain on (docs/api-reference.md §12).
 */
export function canSee(
  viewer: Viewer,
  proposal: Pick<ProposalFacts, 'submitter' | 'ward_id' | 'stage' | 'declined_from' | 'scope' | 'kind' | 'is_release'>,
): boolean {
  if (seesAll(viewer) || proposal.submitter === viewer.id || viewer.roles.bishopWardIds.includes(proposal.ward_id))
    return true
  if (viewer.roles.bishopWardIds.length > 0 && seenByEveryBishop(proposal)) return true
  return atPresidencyStage(proposal) ? viewer.roles.presidency : viewer.permissions.has('proposals.view')
}

/** `submitter` must be the caller unless the caller manages proposals. */
export const canSubmitAs = (viewer: Viewer, submitter: number): boolean => submitter === viewer.id || canManage(viewer)

/**
 * A bishop submits only for his own ward. Callers with stake-wide access to
 * proposals (view or manage) are not bound to a ward, even if they also hold
 * a bishop seat; nor is anyone who holds no bishop seat.
 */
export function canSubmitForWard(viewer: Viewer, wardId: number): boolean {
  if (stakeWide(viewer) || viewer.roles.bishopWardIds.length === 0) return true
  return viewer.roles.bishopWardIds.includes(wardId)
}

/** PUT: the submitter while the proposal is open, or a manager at any stage. */
export const canEdit = (viewer: Viewer, proposal: ProposalFacts): boolean =>
  canManage(viewer) || (proposal.submitter === viewer.id && isOpen(proposal.stage))

// ---------------------------------------------------------------- votes

export type VoteCheck = 'ok' | 'not_a_voter' | 'wrong_role' | 'wrong_stage'

/**
 * Who votes where (docs/api-reference.md §7): the stake presidency at sp_approval, high
 * councilors at hc_approval; anyone else at those stages → 403 (not_a_voter,
 * wrong_role); at any other stage a voter gets 409 wrong_stage. Someone who
 * votes nowhere is refused (403) whatever the stage.
 */
export function voteCheck(roles: Roles, stage: Stage): VoteCheck {
  if (!roles.presidency && !roles.highCouncilor) return 'not_a_voter'
  if (stage === 'sp_approval') return roles.presidency ? 'ok' : 'wrong_role'
  if (stage === 'hc_approval') return roles.highCouncilor ? 'ok' : 'wrong_role'
  return 'wrong_stage'
}

/** The approvals a voting stage needs, from the stake's settings (docs/api-reference.md §14); null elsewhere. */
export function approvalsRequired(
  stage: Stage,
  stake: { sp_approvals_required: number; hc_approvals_required: number },
): number | null {
  if (stage === 'sp_approval') return stake.sp_approvals_required
  if (stage === 'hc_approval') return stake.hc_approvals_required
  return null
}

/** Auto-advance: enough approvals and no rejection at the stage. */
export const shouldAutoAdvance = (counts: { approved: number; rejected: number }, required: number): boolean =>
  counts.rejected === 0 && counts.approved >= required

/** Individual votes (who voted how) are for stake-wide viewers and the presidency; others see the counts. */
export const canSeeVotes = (viewer: Viewer): boolean => stakeWide(viewer) || viewer.roles.presidency

/** Votes cast at sp_approval are listed to the presidency and managers only (S9). */
export const canSeePresidencyVotes = (viewer: Viewer): boolean => seesPresidencyStage(viewer)

// ---------------------------------------------------------------- interviews and comments

export const canCompleteInterview = (viewer: Viewer, interviewerId: number | null): boolean =>
  canManage(viewer) || (interviewerId !== null && interviewerId === viewer.id)

export const canEditComment = (viewer: Viewer, comment: { commenter_id: number }): boolean =>
  comment.commenter_id === viewer.id

export const canDeleteComment = (viewer: Viewer, comment: { commenter_id: number }): boolean =>
  comment.commenter_id === viewer.id || canManage(viewer)
