import type { Generated, SqlBool } from 'kysely'
import type { AuditTables } from '../modules/audit/audit.tables.ts'
import type { NotificationsTables } from '../modules/notifications/notifications.tables.ts'
import type { ProposalsTables } from '../modules/proposals/proposals.tables.ts'
import type { SpeakingTables } from '../modules/speaking/speaking.tables.ts'
import type { WebhooksTables } from '../modules/webhooks/webhooks.tables.ts'
import type { ImportsTables } from '../modules/imports/imports.tables.ts'
import type { PushTables } from '../modules/push/push.tables.ts'
import type { AppointmentsTables } from '../modules/appointments/appointments.tables.ts'
import type { AccountTokensTable, PasskeysTable, WebauthnChallengesTable } from '../modules/accounts/accounts.tables.ts'
import type { StewardshipsTables } from '../modules/stewardships/stewardships.tables.ts'
import type { LimitsTables } from '../modules/limits/limits.tables.ts'

/**
 * Table types. Timestamps are ISO 8601 UTC strings (`...Z`) on both databases,
 * so they compare correctly as text and need no per-dialect parsing. Booleans
 * are real booleans on PostgreSQL and 0/1 on SQLite: read them with Boolean().
 */
/** One stake (docs/api-reference.md §14): its settings, which were environment variables. */
export interface StakesTable {
  id: Generated<number>
  name: string
  timezone: string
  language: string
  sp_approvals_required: number
  hc_approvals_required: number
  high_council_seats: number
  /** The default stake of an install that predates stakes follows the environment variables until its settings are saved in the app. */
  settings_from_env: SqlBool
  created_at: string
  updated_at: string
}

/** A signup code of the operator's (docs/api-reference.md §14): deployment-wide, only its hash kept. */
export interface SignupCodesTable {
  /** SHA-256 (hex) of the code. */
  code_hash: string
  uses_left: number
  created_at: string
}

export interface AppSettingsTable {
  key: string
  value: string
}

export interface UsersTable {
  /** The stake the row belongs to (db/stake-scope.ts fills it in). */
  stake_id: Generated<number>
  id: Generated<number>
  /** Null for a roster-only person (holds callings, never signs in). */
  email: string | null
  /** lower(trim(email)); unique when present — the case-insensitive identity. */
  email_key: string | null
  fname: string
  lname: string
  /** Null until the user chooses one (invited, or roster-only): no password sign-in. */
  password_hash: string | null
  /** As given (an LCR report or an administrator); null when unknown. */
  phone: Generated<string | null>
  active: SqlBool
  force_password_reset: SqlBool
  /** 'en' | 'es': the client's and the notifications' language (default 'en'). */
  language: Generated<string>
  created_at: string
  updated_at: string
}

export interface UserPermissionsTable {
  /** The stake the row belongs to (db/stake-scope.ts fills it in). */
  stake_id: Generated<number>
  user_id: number
  permission: string
}

export interface SessionsTable {
  /** The stake the row belongs to (db/stake-scope.ts fills it in). */
  stake_id: Generated<number>
  id: string
  user_id: number
  token_hash: string
  previous_token_hash: string | null
  rotated_at: string | null
  created_at: string
  expires_at: string
  last_used_at: string
  user_agent: string | null
  ip: string | null
  /** Salt of the last rotation: the next secret is HMAC(salt, previous secret) (issue 19). */
  rotation_salt: Generated<string | null>
  /** Signed in on a shared computer: ends after SHARED_SESSION_IDLE_SECONDS without activity (docs/api-reference.md §13). */
  shared: Generated<SqlBool>
}

/** Hashes of the refresh secrets a session rotated out (S6): only these are reuse. */
export interface SessionRetiredTokensTable {
  /** The stake the row belongs to (db/stake-scope.ts fills it in). */
  stake_id: Generated<number>
  session_id: string
  token_hash: string
  retired_at: string
}

export interface LoginThrottleTable {
  /** 'account' or 'ip' */
  scope: string
  key: string
  failures: number
  window_start: string
  locked_until: string | null
  /** 1 when the attempt that last wrote the row may go on to the password check (S4). */
  allowed: Generated<number>
}

export interface CallingsTable {
  /** The stake the row belongs to (db/stake-scope.ts fills it in). */
  stake_id: Generated<number>
  id: Generated<number>
  name: string
  /** lower(trim(name)); unique. */
  name_key: string
  key: string | null
  is_public: SqlBool
  system_defined: SqlBool
  max_slots: number
  created_at: string
  updated_at: string
}

export interface CallingPermissionsTable {
  /** The stake the row belongs to (db/stake-scope.ts fills it in). */
  stake_id: Generated<number>
  calling_id: number
  permission: string
}

export interface CallingSlotsTable {
  /** The stake the row belongs to (db/stake-scope.ts fills it in). */
  stake_id: Generated<number>
  calling_id: number
  slot_id: number
  user_id: number | null
  ward_id: number | null
  filled_at: string | null
}

export interface CallingSlotHistoryTable {
  /** The stake the row belongs to (db/stake-scope.ts fills it in). */
  stake_id: Generated<number>
  id: Generated<number>
  calling_id: number
  slot_id: number
  user_id: number
  from_at: string
  to_at: string | null
}

export interface WardsTable {
  /** The stake the row belongs to (db/stake-scope.ts fills it in). */
  stake_id: Generated<number>
  id: Generated<number>
  name: string
  name_key: string
  start_time: number
  /** 1–5: the Sunday of the month the ward's speaker comes (5 = the last when there is no fifth). */
  speaking_sunday: Generated<number>
  created_at: string
  updated_at: string
}

/**
 * Every table, in one place: the tables above plus each domain's own
 * (`modules/<domain>/<domain>.tables.ts`), composed here explicitly.
 */
export interface DB
  extends
    AppointmentsTables,
    AuditTables,
    NotificationsTables,
    ProposalsTables,
    SpeakingTables,
    WebhooksTables,
    ImportsTables,
    PushTables,
    StewardshipsTables,
    LimitsTables {
  stakes: StakesTable
  app_settings: AppSettingsTable
  signup_codes: SignupCodesTable
  users: UsersTable
  user_permissions: UserPermissionsTable
  sessions: SessionsTable
  login_throttle: LoginThrottleTable
  session_retired_tokens: SessionRetiredTokensTable
  callings: CallingsTable
  calling_permissions: CallingPermissionsTable
  calling_slots: CallingSlotsTable
  calling_slot_history: CallingSlotHistoryTable
  wards: WardsTable
  // Accounts (issue 27, docs/api-reference.md §16)
  account_tokens: AccountTokensTable
  passkeys: PasskeysTable
  webauthn_challenges: WebauthnChallengesTable
}
