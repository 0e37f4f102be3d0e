import { sql, type Kysely } from 'kysely'
import { sealStakeTable, withId, withStakeId } from '../dialect.ts'

/**
 * Web Push (issue 30): a user's devices (`push_subscriptions`, one row per
 * browser endpoint within a stake: the endpoint is the device's address at its
 * push service; a second user signing in on the device takes the row over) and
 * the pushes waiting to go out (`push_outbox`, claimed and retried like mail:
 * delivery/outbox.ts). A push's payload is the inbox text the recipient may
 * already read (S9 as the inbox). Deleting a device deletes its pushes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withStakeId(db, withId(db, db.schema.createTable('push_subscriptions')))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'varchar(2048)', (c) => c.notNull())
    .addColumn('p256dh', 'varchar(200)', (c) => c.notNull())
    .addColumn('auth', 'varchar(100)', (c) => c.notNull())
    .addColumn('label', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('push_subscriptions_endpoint_key', ['stake_id', 'endpoint'])
    .execute()
  await db.schema
    .createIndex('push_subscriptions_user_idx')
    .on('push_subscriptions')
    .columns(['stake_id', 'user_id'])
    .execute()
  await sealStakeTable(db, 'push_subscriptions')

  await withStakeId(db, withId(db, db.schema.createTable('push_outbox')))
    .addColumn('subscription_id', 'integer', (c) => c.notNull().references('push_subscriptions.id').onDelete('cascade'))
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().check(sql`status IN ('pending', 'sent', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_error', 'varchar(500)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('sent_at', 'varchar(32)')
    .execute()
  await db.schema.createIndex('push_outbox_due_idx').on('push_outbox').columns(['status', 'next_attempt_at']).execute()
  await db.schema.createIndex('push_outbox_subscription_idx').on('push_outbox').column('subscription_id').execute()
  await sealStakeTable(db, 'push_outbox')
}
