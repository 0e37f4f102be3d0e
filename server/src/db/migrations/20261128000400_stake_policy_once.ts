import { sql, type Kysely } from 'kysely'
import { dialectOf } from '../dialect.ts'

/**
 * The stake-owned tables as they were when this migration was written: a table
 * added to stake-scope.ts's STAKE_TABLES later is created by its own migration
 * (with withStakeId and sealStakeTable), after this one ran.
 */
const STAKE_TABLES: readonly string[] = [
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

/**
 * PostgreSQL: the row-level-security policies of 20261128000100 read the
 * setting through app_all_stakes() and app_stake_id() for every row they
 * look at. Wrapped in scalar subqueries the planner evaluates each once per
 * statement (an InitPlan) instead. Measured on the 100-stake bench database
 * as the server's role, the big stake's proposal search count (`search_key
 * LIKE '%ann%'`, 21,000 proposals): median of 9 runs 17.7 ms → 7.1 ms. Same
 * rule, same meaning. SQLite has no policies.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return
  for (const table of STAKE_TABLES) {
    await sql`
      ALTER POLICY stake_isolation ON ${sql.table(table)}
      USING ((SELECT app_all_stakes()) OR stake_id = (SELECT app_stake_id()))
      WITH CHECK ((SELECT app_all_stakes()) OR stake_id = (SELECT app_stake_id()))`.execute(db)
  }
}
