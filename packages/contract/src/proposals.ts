import { Type, type Static, type TLiteral, type TSchema } from 'typebox'
import { Id, Limit, Offset, Timestamp } from './common.ts'
import { OFFICES, PROPOSAL_KINDS, STAGES } from './stages.ts'

/** Calling-proposal tracker schemas (docs/api-reference.md §7, spec endpoints 13–22). */

export * from './stages.ts'

/** One literal schema per value, typed as the tuple of the values (so Static keeps each name). */
const literals = <const T extends readonly string[]>(values: T) =>
  values.map((value) => Type.Literal(value)) as unknown as { -readonly [K in keyof T]: TLiteral<T[K]> }

export const StageName = Type.Union(literals(STAGES))
/** call, release or ordination (docs/api-reference.md §18). */
export const ProposalKindName = Type.Union(literals(PROPOSAL_KINDS))
/** The office an ordination confers. */
export const OfficeName = Type.Union(literals(OFFICES))

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

/** A person named in a comment, vote or history row. */
export const PersonRef = Type.Object({ id: Id, fname: Type.String(), lname: Type.String() })
export type PersonRef = Static<typeof PersonRef>

/** Free text that must contain something besides spaces; stored trimmed. */
const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '\\S' })

/** A calendar date, YYYY-MM-DD (the service also refuses impossible dates such as 2026-02-30). */
export const DateOnly = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' })

export const Interview = Type.Object({
  id: Id,
  proposal_id: Id,
  interviewer_id: Id,
  /** When it is planned, if given when scheduling. */
  scheduled_for: Nullable(Timestamp),
  /** When it took place: set by completing it, null until then. */
  interview_date: Nullable(Timestamp),
})
export type Interview = Static<typeof Interview>

/** `ward`: presented in its own ward; `stake`: presented in every ward (docs/api-reference.md §12). */
export const ProposalScope = Type.Union([Type.Literal('ward'), Type.Literal('stake')])
export type ProposalScope = Static<typeof ProposalScope>

/** A person released as part of this change (docs/api-reference.md §12). */
export const Release = Type.Object({
  fname: Text(100),
  lname: Text(100),
  calling: Text(200),
  /** With `user_id`: recording the proposal releases that user's slot in this calling. */
  calling_id: Type.Optional(Nullable(Id)),
  user_id: Type.Optional(Nullable(Id)),
  /** Answers only: since when the person holds the seat (from the roster, for a linked release); ignored on input. */
  since: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
})
export type Release = Static<typeof Release>

/** A ward where the proposal was presented, and the date (YYYY-MM-DD). */
export const Presentation = Type.Object({ ward_id: Id, at: Type.String() })
export type Presentation = Static<typeof Presentation>

export const Proposal = Type.Object({
  id: Id,
  fname: Type.String(),
  lname: Type.String(),
  spouse_name: Nullable(Type.String()),
  proposed_calling: Type.String(),
  ward_id: Id,
  submitter: Id,
  is_release: Type.Boolean(),
  /** docs/api-reference.md §18: `release` exactly when is_release; older proposals read back as call or release. */
  kind: ProposalKindName,
  /** The office of an ordination; null for calls and releases. */
  office: Nullable(OfficeName),
  submitted_at: Timestamp,
  updated_at: Timestamp,
  stage: StageName,
  stage_changed_at: Timestamp,
  /** Votes cast at the current stage (including those of an earlier visit to it). */
  approvals: Type.Object({ approved: Type.Integer({ minimum: 0 }), rejected: Type.Integer({ minimum: 0 }) }),
  /** The caller's own vote at the current stage. */
  my_vote: Nullable(Type.Boolean()),
  interview: Nullable(Interview),
  scope: ProposalScope,
  releases: Type.Array(Release),
  /** The calling and user that recording seats (a release: unseats); null when not linked. */
  calling_id: Nullable(Id),
  user_id: Nullable(Id),
  /** Wards where it was presented for sustaining, by ward id. */
  presented_in: Type.Array(Presentation),
})
export type Proposal = Static<typeof Proposal>

export const ProposalBody = Type.Object({
  fname: Text(100),
  lname: Text(100),
  /** Empty or null: no spouse (stored as null). */
  spouse_name: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  proposed_calling: Text(200),
  ward_id: Id,
  /** Defaults to the caller; another user's id needs proposals.manage. */
  submitter: Type.Optional(Id),
  /** Only on create; a PUT may repeat it but not change it. */
  is_release: Type.Optional(Type.Boolean()),
  /**
   * Only on create, like is_release (which must agree with it: 422); default
   * `release` when is_release is true, else `call`.
   */
  kind: Type.Optional(ProposalKindName),
  /** Required for an ordination (422 without), refused for the other kinds; only on create. */
  office: Type.Optional(Nullable(OfficeName)),
  /** Default `ward` on create; omitted on PUT keeps the current value. */
  scope: Type.Optional(ProposalScope),
  /** Default `[]` on create; omitted on PUT keeps the current list. */
  releases: Type.Optional(Type.Array(Release, { maxItems: 50 })),
  /** Must exist (422); null unlinks; omitted on PUT keeps the current value. */
  calling_id: Type.Optional(Nullable(Id)),
  user_id: Type.Optional(Nullable(Id)),
})
export type ProposalBody = Static<typeof ProposalBody>

export const ProposalListQuery = Type.Object({
  stage: Type.Optional(StageName),
  ward_id: Type.Optional(Id),
  is_release: Type.Optional(Type.Boolean()),
  kind: Type.Optional(ProposalKindName),
  /** Case-insensitive match on names, spouse name and proposed calling. */
  q: Type.Optional(Type.String({ maxLength: 200 })),
  /** Archive: the proposed calling contains this text (case-insensitive for ASCII letters). */
  calling: Type.Optional(Type.String({ maxLength: 200 })),
  /** Archive (docs/api-reference.md §12): stage_changed_at on or after this date (YYYY-MM-DD, UTC). */
  from: Type.Optional(DateOnly),
  /** Archive: stage_changed_at on or before this date (YYYY-MM-DD, UTC). */
  to: Type.Optional(DateOnly),
  limit: Type.Optional(Limit),
  offset: Type.Optional(Offset),
})
export type ProposalListQuery = Static<typeof ProposalListQuery>

export const ProposalParams = Type.Object({ proposal_id: Id })
export const CommentParams = Type.Object({ proposal_id: Id, comment_id: Id })

export const MoveQuery = Type.Object({
  /** The stage the caller saw; a different current stage → 409 stale_stage. */
  from_stage: StageName,
  /**
   * Advancing off `interview` with an interview scheduled and not held: true
   * says it was not needed (recorded in the history); without it → 409
   * interview_not_held.
   */
  waive: Type.Optional(Type.Boolean()),
})
export type MoveQuery = Static<typeof MoveQuery>

/** POST /set-apart, /ordain, /record: the day it happened (YYYY-MM-DD), default today in the stake's zone. */
export const StepQuery = Type.Object({
  date: Type.Optional(DateOnly),
})
export type StepQuery = Static<typeof StepQuery>

export const DeclineBody = Type.Object({ reason: Text(2000) })
export type DeclineBody = Static<typeof DeclineBody>

export const VoteQuery = Type.Object({ approved: Type.Boolean() })

export const Approval = Type.Object({
  id: Id,
  proposal_id: Id,
  approver_id: Id,
  approver: PersonRef,
  stage: StageName,
  approved: Type.Boolean(),
  /** When the vote was first cast. */
  created_at: Timestamp,
  /** When it was last cast or changed. */
  updated_at: Timestamp,
})
export type Approval = Static<typeof Approval>

export const ScheduleInterviewQuery = Type.Object({
  interviewer_id: Id,
  scheduled_for: Type.Optional(Timestamp),
})
export type ScheduleInterviewQuery = Static<typeof ScheduleInterviewQuery>

export const CompleteInterviewQuery = Type.Object({ completion_date: Type.Optional(Timestamp) })

export const Comment = Type.Object({
  id: Id,
  proposal_id: Id,
  commenter_id: Id,
  commenter: PersonRef,
  comment_text: Type.String(),
  created_at: Timestamp,
  edited_at: Nullable(Timestamp),
})
export type Comment = Static<typeof Comment>

export const CommentBody = Type.Object({
  /** Must equal the path's proposal id (422 otherwise). */
  proposal_id: Type.Optional(Id),
  /** Must be the caller (403 otherwise); omitted means the caller. */
  commenter_id: Type.Optional(Id),
  comment_text: Text(5000),
})
export type CommentBody = Static<typeof CommentBody>

export const HistoryEntry = Type.Object({
  id: Id,
  proposal_id: Id,
  /** null on the row that records the submission. */
  from_stage: Nullable(StageName),
  to_stage: StageName,
  /** The user who made the change. */
  by: Id,
  by_user: PersonRef,
  at: Timestamp,
  note: Nullable(Type.String()),
  /** Set apart, ordained, recorded: the day it happened (YYYY-MM-DD), as recorded; else null. */
  on_date: Nullable(Type.String()),
})
export type HistoryEntry = Static<typeof HistoryEntry>

export const VotingStage = Type.Object({
  required: Type.Integer({ minimum: 1 }),
  voters: Type.Array(PersonRef),
})
export type VotingStage = Static<typeof VotingStage>

export const BoardVote = Type.Object({ proposal_id: Id, voter_id: Id, approved: Type.Boolean() })
export type BoardVote = Static<typeof BoardVote>

/** GET /board?kind=: only proposals of that kind (docs/api-reference.md §18). */
export const BoardQuery = Type.Object({ kind: Type.Optional(ProposalKindName) })
export type BoardQuery = Static<typeof BoardQuery>

export const Board = Type.Object({
  stages: Type.Object({
    sp_approval: Type.Array(Proposal),
    hc_approval: Type.Array(Proposal),
    interview: Type.Array(Proposal),
    sustain: Type.Array(Proposal),
    set_apart: Type.Array(Proposal),
    ordain: Type.Array(Proposal),
    record: Type.Array(Proposal),
  }),
  /** Done or declined within the last 30 days, most recent first. */
  closed_recently: Type.Array(Proposal),
  /**
   * The voting stages: approvals needed to auto-advance and who votes there
   * (the active holders of the stage's seats), so a card can say "2 of 3
   * approvals" and who is still to vote.
   */
  voting: Type.Object({ sp_approval: VotingStage, hc_approval: VotingStage }),
  /** The votes at their current stage of the board's proposals at a voting stage. */
  votes: Type.Array(BoardVote),
})
export type Board = Static<typeof Board>

// ---------------------------------------------------------------- the compact board (docs/api-reference.md §7)

/**
 * A card of the compact board (docs/api-reference.md §7, "Compact board"): a
 * Proposal without what the board says once for all cards or what is a
 * default. Omitted keys mean: `spouse_name` null, `is_release` false,
 * `my_vote` null, `interview` null, `scope` "ward", `releases` [],
 * `calling_id`/`user_id` null, `presented_in` [], no votes. The interview
 * leaves out its `proposal_id` (the card's id); `approvals` are the lengths of
 * `approved_by` / `rejected_by` (the voters' ids at the current stage), or
 * given as such where the voters are not the caller's to see.
 */
export const CompactCard = Type.Object({
  id: Id,
  fname: Type.String(),
  lname: Type.String(),
  spouse_name: Type.Optional(Type.String()),
  proposed_calling: Type.String(),
  ward_id: Id,
  submitter: Id,
  is_release: Type.Optional(Type.Literal(true)),
  /** Left out for a call (the default). */
  kind: Type.Optional(ProposalKindName),
  /** An ordination's office; left out otherwise. */
  office: Type.Optional(OfficeName),
  submitted_at: Timestamp,
  updated_at: Timestamp,
  stage: StageName,
  stage_changed_at: Timestamp,
  approved_by: Type.Optional(Type.Array(Id)),
  rejected_by: Type.Optional(Type.Array(Id)),
  /**
   * Instead of the voters' ids when the caller may not see who voted (S9: votes
   * at sp_approval, outside the presidency and proposals.manage): the tally alone.
   */
  approvals: Type.Optional(
    Type.Object({ approved: Type.Integer({ minimum: 0 }), rejected: Type.Integer({ minimum: 0 }) }),
  ),
  my_vote: Type.Optional(Type.Boolean()),
  interview: Type.Optional(
    Type.Object({
      id: Id,
      interviewer_id: Id,
      scheduled_for: Nullable(Timestamp),
      interview_date: Nullable(Timestamp),
    }),
  ),
  scope: Type.Optional(Type.Literal('stake')),
  releases: Type.Optional(Type.Array(Release)),
  calling_id: Type.Optional(Id),
  user_id: Type.Optional(Id),
  presented_in: Type.Optional(Type.Array(Presentation)),
})
export type CompactCard = Static<typeof CompactCard>

/** A voting stage with its voters by id (their names once, in the board's `people`). */
export const CompactVotingStage = Type.Object({
  required: Type.Integer({ minimum: 1 }),
  voters: Type.Array(Id),
})

/**
 * GET /calling-kanban/board/compact: the open proposals in full (compact
 * cards, oldest change first), the closed ones of the last 30 days as counts
 * (their cards page by page from /board/closed), and the voting seats once.
 */
export const CompactBoard = Type.Object({
  cards: Type.Array(CompactCard),
  closed: Type.Object({ done: Type.Integer({ minimum: 0 }), declined: Type.Integer({ minimum: 0 }) }),
  voting: Type.Object({ sp_approval: CompactVotingStage, hc_approval: CompactVotingStage }),
  /** Each person once: the voting seats' holders, then the open cards' interviewers. */
  people: Type.Array(PersonRef),
})
export type CompactBoard = Static<typeof CompactBoard>

/** GET /calling-kanban/board/closed: the closed column, most recent first, a page at a time. */
export const ClosedPageQuery = Type.Object({
  limit: Type.Optional(Limit),
  offset: Type.Optional(Offset),
})
export type ClosedPageQuery = Static<typeof ClosedPageQuery>
