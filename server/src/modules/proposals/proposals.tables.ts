import type { Generated, SqlBool } from 'kysely'
import type { Office, ProposalKind, ProposalScope, Stage } from '@stake/contract'
import { stakeTable, type RowsOf } from '../../db/table.ts'

/** Table types of the proposal tracker (migration 20261122000400_proposals). */
export interface ProposalsTable {
  stake_id: Generated<number>
  id: Generated<number>
  fname: string
  lname: string
  spouse_name: string | null
  proposed_calling: string
  ward_id: number
  submitter: number
  is_release: SqlBool
  /** call, release (exactly when is_release) or ordination (migration 20261129030100_ordinations). */
  kind: Generated<ProposalKind>
  /** An ordination's office; null for the other kinds. */
  office: Generated<Office | null>
  stage: Stage
  stage_changed_at: string
  /** The stage a declined proposal was declined at; null otherwise (S9, migration 20261124000200). */
  declined_from: Generated<Stage | null>
  submitted_at: string
  updated_at: string
  /** 'ward' | 'stake' (docs/api-reference.md §12, migration 20261125003000_sustainings). */
  scope: Generated<ProposalScope>
  /** JSON array of releases (docs/api-reference.md §12); read and written whole with the proposal. */
  releases: Generated<string>
  calling_id: Generated<number | null>
  user_id: Generated<number | null>
  /** Lower-cased text that `q` searches (migration 20261122000650_proposal_search); never in a response. */
  search_key: Generated<string>
}

export interface ProposalHistoryTable {
  stake_id: Generated<number>
  id: Generated<number>
  proposal_id: number
  from_stage: Stage | null
  to_stage: Stage
  by_user_id: number
  at: string
  note: string | null
  /** The day a named step happened (YYYY-MM-DD), as recorded; null on other rows. */
  on_date: string | null
}

export interface ProposalVotesTable {
  stake_id: Generated<number>
  id: Generated<number>
  proposal_id: number
  stage: Stage
  approver_id: number
  approved: SqlBool
  created_at: string
  updated_at: string
}

export interface ProposalInterviewsTable {
  stake_id: Generated<number>
  id: Generated<number>
  proposal_id: number
  interviewer_id: number
  scheduled_for: string | null
  interview_date: string | null
  created_at: string
  updated_at: string
}

export interface ProposalCommentsTable {
  stake_id: Generated<number>
  id: Generated<number>
  proposal_id: number
  commenter_id: number
  comment_text: string
  created_at: string
  edited_at: string | null
}

/** Where a proposal was presented for sustaining (docs/api-reference.md §12); one row per ward. */
export interface ProposalPresentationsTable {
  stake_id: Generated<number>
  proposal_id: number
  ward_id: number
  /** YYYY-MM-DD */
  at: string
  by_user_id: number
  created_at: string
}

/** The proposals domain's tables (db/table.ts). */
export const proposalsTables = {
  proposals: stakeTable<ProposalsTable>({
    transfer: {
      id: true,
      refs: { ward_id: 'wards', submitter: 'users', calling_id: 'callings', user_id: 'users' },
      booleans: ['is_release'],
      orderBy: ['id'],
    },
  }),
  proposal_history: stakeTable<ProposalHistoryTable>({
    transfer: { id: true, refs: { proposal_id: 'proposals', by_user_id: 'users' }, orderBy: ['id'] },
  }),
  proposal_votes: stakeTable<ProposalVotesTable>({
    transfer: {
      id: true,
      refs: { proposal_id: 'proposals', approver_id: 'users' },
      booleans: ['approved'],
      orderBy: ['id'],
    },
  }),
  proposal_interviews: stakeTable<ProposalInterviewsTable>({
    transfer: { id: true, refs: { proposal_id: 'proposals', interviewer_id: 'users' }, orderBy: ['id'] },
  }),
  proposal_comments: stakeTable<ProposalCommentsTable>({
    transfer: { id: true, refs: { proposal_id: 'proposals', commenter_id: 'users' }, orderBy: ['id'] },
  }),
  proposal_presentations: stakeTable<ProposalPresentationsTable>({
    transfer: {
      refs: { proposal_id: 'proposals', ward_id: 'wards', by_user_id: 'users' },
      orderBy: ['proposal_id', 'ward_id'],
    },
  }),
}
export type ProposalsTables = RowsOf<typeof proposalsTables>
