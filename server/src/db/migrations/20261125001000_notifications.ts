import { sql, type Kysely } from 'kysely'
import { withId } from '../dialect.ts'

/**
 * Notifications, mail and reminders (docs/api-reference.md §11).
 * - `notifications`: each user's inbox. `mail` says what becomes of it by
 *   mail: null (none), `digest` (waits for the daily digest), `digested`.
 * - `notification_preferences`: one row per user who chose; none = immediate.
 * - `mail_outbox`: every message to send, written in the transaction of the
 *   event; the worker claims rows (`sending` with a lease), then `sent` or,
 *   after the last attempt, `failed`.
 * - `proposal_reminders`: when a manager last reminded a proposal's voters
 *   (the one-hour limit is a conditional upsert on this row).
 * - `auto_reminders`: the automatic reminders given, one per voter and visit
 *   to a stage (`stage_changed_at` names the visit).
 * - `daily_runs`: one row per local day on which the daily jobs ran; its
 *   primary key lets one instance only run them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('notifications'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(32)', (c) =>
      c
        .notNull()
        .check(sql`kind IN ('vote_needed', 'interview_assigned', 'stage_changed', 'declined', 'comment', 'reminder')`),
    )
    .addColumn('proposal_id', 'integer', (c) => c.references('proposals.id').onDelete('cascade'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('read_at', 'varchar(32)')
    .addColumn('mail', 'varchar(16)', (c) => c.check(sql`mail IN ('digest', 'digested')`))
    .execute()
  await db.schema.createIndex('notifications_user_idx').on('notifications').columns(['user_id', 'id']).execute()
  await db.schema
    .createIndex('notifications_digest_idx')
    .on('notifications')
    .columns(['mail', 'user_id'])
    .where(sql.ref('mail'), '=', 'digest')
    .execute()
  await db.schema.createIndex('notifications_proposal_idx').on('notifications').column('proposal_id').execute()

  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('email', 'varchar(16)', (c) => c.notNull().check(sql`email IN ('off', 'immediate', 'daily')`))
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()

  await withId(db, db.schema.createTable('mail_outbox'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('to_address', 'varchar(320)', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('subject', 'varchar(300)', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status IN ('pending', 'sending', 'sent', 'failed')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('claimed_until', 'varchar(32)')
    .addColumn('last_error', 'varchar(500)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('sent_at', 'varchar(32)')
    .execute()
  await db.schema.createIndex('mail_outbox_due_idx').on('mail_outbox').columns(['status', 'next_attempt_at']).execute()

  await db.schema
    .createTable('proposal_reminders')
    .addColumn('proposal_id', 'integer', (c) => c.primaryKey().references('proposals.id').onDelete('cascade'))
    .addColumn('last_manual_at', 'varchar(32)', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('auto_reminders')
    .addColumn('proposal_id', 'integer', (c) => c.notNull().references('proposals.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('stage_changed_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('auto_reminders_pk', ['proposal_id', 'user_id', 'stage_changed_at'])
    .execute()

  await db.schema
    .createTable('daily_runs')
    .addColumn('day', 'varchar(10)', (c) => c.primaryKey())
    .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('finished_at', 'varchar(32)')
    .execute()
}
