import type { Generated } from 'kysely'
import type { EmailPreference, NotificationKind } from '@stake/contract'

/** Table types of notifications, mail and reminders (migration 20261125001000_notifications). */
export interface NotificationsTable {
  stake_id: Generated<number>
  id: Generated<number>
  user_id: number
  kind: NotificationKind
  proposal_id: number | null
  /** In the recipient's language, written once. */
  text: string
  created_at: string
  read_at: string | null
  /** null: no mail; `digest`: waits for the daily digest; `digested`: in a digest (or dropped there). */
  mail: 'digest' | 'digested' | null
}

export interface NotificationPreferencesTable {
  stake_id: Generated<number>
  user_id: number
  email: EmailPreference
  updated_at: string
}

/** `sending` is no longer written (migration 20261127000100_mail_claims_as_webhooks). */
export type OutboxRowStatus = 'pending' | 'sending' | 'sent' | 'failed'

export interface MailOutboxTable {
  stake_id: Generated<number>
  id: Generated<number>
  user_id: number | null
  to_address: string
  /** The notification kind, or `digest`. */
  kind: string
  subject: string
  text_body: string
  html_body: string
  status: Generated<OutboxRowStatus>
  attempts: Generated<number>
  /** When a worker may claim it next; while claimed, the end of the lease (delivery/outbox.ts). */
  next_attempt_at: string
  /** No longer written (migration 20261127000100_mail_claims_as_webhooks). */
  claimed_until: string | null
  last_error: string | null
  created_at: string
  sent_at: string | null
}

export interface ProposalRemindersTable {
  stake_id: Generated<number>
  proposal_id: number
  last_manual_at: string
}

export interface AutoRemindersTable {
  stake_id: Generated<number>
  proposal_id: number
  user_id: number
  stage_changed_at: string
  created_at: string
}

export interface DailyRunsTable {
  stake_id: Generated<number>
  /** YYYY-MM-DD in the stake's time zone. */
  day: string
  started_at: string
  finished_at: string | null
}

/** The notifications domain's tables, composed into `DB` by db/schema.ts. */
export interface NotificationsTables {
  notifications: NotificationsTable
  notification_preferences: NotificationPreferencesTable
  mail_outbox: MailOutboxTable
  proposal_reminders: ProposalRemindersTable
  auto_reminders: AutoRemindersTable
  daily_runs: DailyRunsTable
}
