/**
 * API shapes. They come from the shared contract package (packages/contract,
 * the same TypeBox schemas the server validates and serializes with), imported
 * as types only so no schema code reaches the bundle.
 */
import type * as C from '@stake/contract'

export { PERMISSIONS } from '@stake/contract/permissions'
export { OPEN_STAGES, isClosedStage, isVotingStage, stagePath } from '@stake/contract/stages'
import { stagePath, type ProposalKind } from '@stake/contract/stages'
export type { ProposalKind } from '@stake/contract/stages'
export type Permission = C.Permission

/** A user as listed: full for users.manage, a summary (no email) otherwise. */
export type User = C.UserSummary & Partial<Omit<C.User, keyof C.UserSummary>>
export type CreatedUser = C.User & { temporary_password?: string; invitation?: C.InvitationSent }
export type HeldCalling = C.HeldCalling
export type Me = C.Me
export type TokenResponse = C.TokenResponse
export type RefreshResponse = C.RefreshResponse
export type RefreshInclude = C.RefreshInclude
export type Session = C.SessionInfo
export type PersonRef = C.PersonRef
export type Slot = C.CallingSlot
export type Calling = C.Calling
export type CallingHistoryRow = C.CallingHistoryEntry
export type Ward = C.Ward
export type SpeakingFeed = C.SpeakingFeed
export type SpeakingFeedStatus = C.SpeakingFeedStatus
export type OpenStage = C.OpenStage
export type Stage = C.Stage
/** A proposal; on the board, its interview also names the interviewer (the compact board's `people`). */
export type Proposal = Omit<C.Proposal, 'interview'> & {
  interview: (C.Interview & { interviewer?: C.PersonRef }) | null
}
export type Release = C.Release
export type Sustainings = C.Sustainings
export type Board = C.Board
export type Actions = C.Actions
export type ActionItem = C.ActionItem
export type Notification = C.Notification
export type NotificationPreferences = C.NotificationPreferences
export type EmailPreference = C.EmailPreference
export type Reminded = C.Reminded
export type Comment = C.Comment
export type Vote = C.Approval
export type HistoryRow = C.HistoryEntry
export type CalendarRow = C.SpeakingRow
export type Calendar = C.SpeakingCalendar
export type Topic = C.SpeakingMonthTopic
export type Stewardships = C.Stewardships
export type Stewardship = C.Stewardship

export interface ProposalInput {
  fname: string
  lname: string
  spouse_name: string | null
  proposed_calling: string
  ward_id: number
  submitter: number
  is_release: boolean
  /** docs/api-reference.md §18: only on create. */
  kind?: ProposalKind
  office?: 'elder' | 'high_priest' | null
  /** docs/api-reference.md §12; omitted on a PUT keeps the stored value. */
  scope?: C.ProposalScope
  releases?: C.Release[]
  calling_id?: number | null
  user_id?: number | null
}

/** `kind`: the proposal's kind (or the older is_release flag). */
export function nextStage(stage: Stage, kind: ProposalKind | boolean): Stage | null {
  const path = stagePath(kind)
  const i = path.indexOf(stage)
  return i >= 0 && i < path.length - 1 ? (path[i + 1] ?? null) : null
}

export function prevStage(stage: Stage, kind: ProposalKind | boolean): Stage | null {
  const path = stagePath(kind)
  const i = path.indexOf(stage)
  return i > 0 ? (path[i - 1] ?? null) : null
}

export type ImportPreview = C.ImportPreview
export type ImportChange = C.ImportChange
export type ImportSummary = C.ImportSummary
export type ImportProblem = C.ImportProblem
export type ImportProblemCode = C.ImportProblemCode
export type ImportIgnoredLine = C.ImportIgnoredLine
/** The compact board (docs/api-reference.md §7, "Compact board"): its wire shape. */
export type CompactBoard = C.CompactBoard
export type CompactCard = C.CompactCard
