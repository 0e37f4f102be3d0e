/**
 * The stake-owned tables as the stakes migration (20261128000100) found them:
 * that migration, 20261128000400 and the migration test work on these, not on
 * STAKE_TABLES, so a later table (created with its stake column) does not
 * make an earlier migration touch a table that does not exist yet.
 */
export const STAKE_TABLES_OF_20261128: readonly string[] = [
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
