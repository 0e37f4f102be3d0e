/** API shapes, as written in API-CONTRACT.md (snake_case, as the server speaks). */

export const PERMISSIONS = [
  'users.manage',
  'callings.manage',
  'wards.manage',
  'speaking.manage',
  'proposals.submit',
  'proposals.view',
  'proposals.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export interface User {
  id: number;
  email?: string;
  fname: string;
  lname: string;
  active: boolean;
  force_password_reset?: boolean;
  created_at?: string;
  updated_at?: string;
}

export interface CreatedUser extends User {
  temporary_password?: string;
}

export interface HeldCalling {
  calling_id?: number;
  id?: number;
  name: string;
  key?: string | null;
  slot_id: number;
  ward_id?: number | null;
}

export interface Me extends User {
  email: string;
  force_password_reset: boolean;
  callings: HeldCalling[];
  permissions: string[];
}

export interface TokenResponse {
  access_token: string;
  token_type?: string;
  expires_in?: number;
}

export interface Session {
  id: string;
  created_at?: string;
  last_used_at?: string | null;
  user_agent?: string | null;
  ip?: string | null;
  current?: boolean;
  expires_at?: string;
}

export interface PersonRef {
  id: number;
  fname: string;
  lname: string;
}

export interface Slot {
  slot_id: number;
  filled: boolean;
  user_id: number | null;
  user: PersonRef | null;
  ward_id?: number | null;
}

export interface Calling {
  id: number;
  name: string;
  key: string | null;
  is_public: boolean;
  system_defined: boolean;
  max_slots: number;
  permissions: string[];
  slots: Slot[];
  created_at?: string;
  updated_at?: string;
}

export interface CallingHistoryRow {
  id?: number;
  slot_id: number;
  user_id: number;
  user?: PersonRef | null;
  started_at?: string;
  ended_at?: string | null;
  from?: string;
  to?: string | null;
}

export interface Ward {
  id: number;
  name: string;
  bishop_id: number | null;
  start_time: number;
}

export const OPEN_STAGES = ['sp_approval', 'hc_approval', 'interview', 'sustain', 'set_apart', 'record'] as const;
export type OpenStage = (typeof OPEN_STAGES)[number];
export type Stage = OpenStage | 'done' | 'declined';

export const STAGE_LABELS: Record<Stage, string> = {
  sp_approval: 'Presidency approval',
  hc_approval: 'High council approval',
  interview: 'Interview',
  sustain: 'Sustain',
  set_apart: 'Set apart',
  record: 'Record',
  done: 'Done',
  declined: 'Declined',
};

const CALL_PATH: Stage[] = ['sp_approval', 'hc_approval', 'interview', 'sustain', 'set_apart', 'record', 'done'];
const RELEASE_PATH: Stage[] = ['interview', 'sustain', 'record', 'done'];

/** A proposal's own path (contract §7): a release skips the votes and set_apart. */
export function stagePath(isRelease: boolean): Stage[] {
  return isRelease ? RELEASE_PATH : CALL_PATH;
}

export function nextStage(stage: Stage, isRelease: boolean): Stage | null {
  const path = stagePath(isRelease);
  const i = path.indexOf(stage);
  return i >= 0 && i < path.length - 1 ? (path[i + 1] ?? null) : null;
}

export function prevStage(stage: Stage, isRelease: boolean): Stage | null {
  const path = stagePath(isRelease);
  const i = path.indexOf(stage);
  return i > 0 ? (path[i - 1] ?? null) : null;
}

export interface Interview {
  id: number;
  proposal_id: number;
  interviewer_id: number;
  interview_date: string | null;
  scheduled_for?: string | null;
}

export interface Proposal {
  id: number;
  fname: string;
  lname: string;
  spouse_name: string | null;
  proposed_calling: string;
  ward_id: number;
  submitter: number;
  is_release: boolean;
  submitted_at: string;
  updated_at: string;
  stage: Stage;
  stage_changed_at?: string;
  approvals: { approved: number; rejected: number };
  my_vote: boolean | null;
  interview: Interview | null;
}

export interface ProposalInput {
  fname: string;
  lname: string;
  spouse_name: string | null;
  proposed_calling: string;
  ward_id: number;
  submitter: number;
  is_release: boolean;
}

export interface Board {
  stages: Record<OpenStage, Proposal[]>;
  closed_recently: Proposal[];
}

export interface Comment {
  id: number;
  proposal_id: number;
  commenter_id: number;
  commenter?: PersonRef;
  comment_text: string;
  created_at: string;
  edited_at: string | null;
}

export interface Vote {
  id?: number;
  approver_id?: number;
  approver?: PersonRef;
  voter_id?: number;
  voter?: PersonRef | number | null;
  stage: Stage;
  approved: boolean;
  created_at?: string;
  at?: string;
}

export interface HistoryRow {
  id?: number;
  from_stage: Stage | null;
  to_stage: Stage;
  by: number | PersonRef | null;
  by_user?: PersonRef;
  at: string;
  note: string | null;
}

export interface CalendarMonth {
  month: number;
  ward_id: number | null;
  overridden: boolean;
  topic?: string | null;
}

export interface CalendarRow {
  slot_id: number;
  high_councilor_id: number | null;
  high_councilor: PersonRef | null;
  months: CalendarMonth[];
}

export interface Topic {
  month: number;
  topic: string | null;
  reference: string | null;
}

export interface Calendar {
  year: number;
  wards: { id: number; name: string }[];
  rows: CalendarRow[];
  topics?: Topic[];
}
