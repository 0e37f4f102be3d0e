/**
 * The stake-owned tables as they were when the stakes migration
 * (20261128000100) gave them `stake_id`: frozen, because migrations must do
 * tomorrow what they did today. The migrations that seal these tables use
 * this list. The live list (modules/tables.ts's STAKE_TABLES) is derived
 * from the tables' declarations instead; tables created later have their
 * own migrations, with withStakeId and sealStakeTable.
 */
export const FIRST_STAKE_TABLES: readonly string[] = [
  'users',
  'user_permissions',
  'sessions',
  'session_retired_tokens',
  'wards',
  'callings',
  'calling_permissions',
  'calling_slots',
  'calling_slot_history',
  'proposals',
  'proposal_history',
  'proposal_votes',
  'proposal_interviews',
  'proposal_comments',
  'proposal_presentations',
  'speaking_overrides',
  'speaking_topics',
  'speaking_feeds',
  'notifications',
  'notification_preferences',
  'mail_outbox',
  'proposal_reminders',
  'auto_reminders',
  'daily_runs',
  'webhooks',
  'webhook_events',
  'webhook_deliveries',
  'audit_log',
]
