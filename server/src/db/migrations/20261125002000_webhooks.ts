import { sql, type Kysely } from 'kysely'
import { withId } from '../dialect.ts'

/**
 * Webhooks (docs/api-reference.md §11).
 * - `webhooks`: where to post and how. `secret` is kept as issued: the server
 *   signs every delivery with it, so it cannot be a hash (docs/SECURITY.md
 *   "Webhook secrets"); no API answer but the 201 of its creation shows it.
 * - `webhook_events`: the events each webhook subscribes to, one row each, so
 *   an event finds its webhooks through the primary key's (event) index.
 * - `webhook_deliveries`: the outbox and the delivery log in one. A row is
 *   written in the same transaction as the change it reports, with the facts
 *   of the proposal at that moment (names only for webhooks that include
 *   them). `next_attempt_at` is when a worker may next claim it: the schedule
 *   of `delivery/schedule.ts`, or a short lease while a worker is posting it.
 *   `proposal_id` has no foreign key: the log outlives a deleted proposal.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('webhooks'))
    .addColumn('url', 'varchar(2000)', (c) => c.notNull())
    .addColumn('format', 'varchar(16)', (c) => c.notNull().check(sql`format IN ('json', 'slack', 'discord')`))
    .addColumn('include_names', 'boolean', (c) => c.notNull())
    .addColumn('secret', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('webhook_events')
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_events_pk', ['event', 'webhook_id'])
    .execute()

  await withId(db, db.schema.createTable('webhook_deliveries'))
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event', 'varchar(32)', (c) => c.notNull())
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .addColumn('proposal_id', 'integer')
    .addColumn('proposed_calling', 'varchar(200)')
    .addColumn('ward_id', 'integer')
    .addColumn('ward_name', 'varchar(100)')
    .addColumn('stage', 'varchar(16)')
    .addColumn('fname', 'varchar(100)')
    .addColumn('lname', 'varchar(100)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().check(sql`status IN ('pending', 'delivered', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'varchar(32)')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'varchar(500)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('delivered_at', 'varchar(32)')
    .execute()
  // The worker's claim: pending rows due by now, oldest first.
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute()
  // The log of one webhook, newest first.
  await db.schema
    .createIndex('webhook_deliveries_webhook_idx')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'id'])
    .execute()
}
