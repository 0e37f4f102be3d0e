import type { Generated } from 'kysely'
import type { EmailPreference, NotificationKind } from '@stake/contract'
import { outboxTable, stakeTable, type RowsOf } from '../../db/table.ts'

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

/** The notifications domain's tables (db/table.ts). */
export const notificationsTables = {
  notifications: stakeTable<NotificationsTable>({
    transfer: { id: true, refs: { user_id: 'users', proposal_id: 'proposals' }, orderBy: ['id'] },
  }),
  notification_preferences: stakeTable<NotificationPreferencesTable>({
    transfer: { refs: { user_id: 'users' }, orderBy: ['user_id'] },
  }),
  mail_outbox: outboxTable<MailOutboxTable>({
    transfer: { id: true, refs: { user_id: 'users' }, orderBy: ['id'] },
    outbox: { sent: 'sent', sentAt: 'sent_at' },
  }),
  proposal_reminders: stakeTable<ProposalRemindersTable>({
    transfer: { refs: { proposal_id: 'proposals' }, orderBy: ['proposal_id'] },
  }),
  auto_reminders: stakeTable<AutoRemindersTable>({
    transfer: { refs: { proposal_id: 'proposals', user_id: 'users' }, orderBy: ['proposal_id', 'user_id'] },
  }),
  daily_runs: stakeTable<DailyRunsTable>({ transfer: { orderBy: ['day'] } }),
}
export type NotificationsTables = RowsOf<typeof notificationsTables>
