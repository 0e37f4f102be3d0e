/**
 * The stake-owned tables as they were when the stakes migrations ran
 * (20261128000100_stakes, 20261128000400_stake_policy_once). Those
 * migrations add `stake_id` and policies to exactly these; tables made
 * later get theirs in their own migration (dialect.ts `withStakeId`,
 * `sealStakeTable`), so a migration never reaches a table that does not
 * exist yet. Frozen: never add to this list (add to STAKE_TABLES).
 */
export const STAKE_TABLES_20261128: readonly string[] = [
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
