import { sql, type Kysely } from 'kysely'
import { withId } from '../dialect.ts'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('app_settings')
    .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute()

  await withId(db, db.schema.createTable('users'))
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('email_key', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('fname', 'varchar(100)', (c) => c.notNull())
    .addColumn('lname', 'varchar(100)', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('active', 'boolean', (c) => c.notNull())
    .addColumn('force_password_reset', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('user_permissions')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('permission', 'varchar(50)', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_permissions_pk', ['user_id', 'permission'])
    .execute()

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('previous_token_hash', 'varchar(64)')
    .addColumn('rotated_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(500)')
    .addColumn('ip', 'varchar(64)')
    .execute()
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute()

  await db.schema
    .createTable('login_throttle')
    .addColumn('scope', 'varchar(16)', (c) => c.notNull())
    .addColumn('key', 'varchar(254)', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'varchar(32)', (c) => c.notNull())
    .addColumn('locked_until', 'varchar(32)')
    .addPrimaryKeyConstraint('login_throttle_pk', ['scope', 'key'])
    .execute()

  await withId(db, db.schema.createTable('wards'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('start_time', 'integer', (c) => c.notNull().check(sqlRange('start_time', 0, 1439)))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()

  await withId(db, db.schema.createTable('callings'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('key', 'varchar(50)', (c) => c.unique())
    .addColumn('is_public', 'boolean', (c) => c.notNull())
    .addColumn('system_defined', 'boolean', (c) => c.notNull())
    .addColumn('max_slots', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('calling_permissions')
    .addColumn('calling_id', 'integer', (c) => c.notNull().references('callings.id').onDelete('cascade'))
    .addColumn('permission', 'varchar(50)', (c) => c.notNull())
    .addPrimaryKeyConstraint('calling_permissions_pk', ['calling_id', 'permission'])
    .execute()

  // A slot exists as a row whether filled or not. Filling is a conditional
  // UPDATE ... WHERE user_id IS NULL (one winner); (calling_id, user_id) is
  // unique so nobody holds two slots of one calling (NULLs do not collide).
  await db.schema
    .createTable('calling_slots')
    .addColumn('calling_id', 'integer', (c) => c.notNull().references('callings.id').onDelete('cascade'))
    .addColumn('slot_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('ward_id', 'integer', (c) => c.references('wards.id').onDelete('cascade'))
    .addColumn('filled_at', 'varchar(32)')
    .addPrimaryKeyConstraint('calling_slots_pk', ['calling_id', 'slot_id'])
    .addUniqueConstraint('calling_slots_holder_uq', ['calling_id', 'user_id'])
    .execute()
  await db.schema.createIndex('calling_slots_user_idx').on('calling_slots').column('user_id').execute()
  await db.schema.createIndex('calling_slots_ward_idx').on('calling_slots').column('ward_id').execute()

  await withId(db, db.schema.createTable('calling_slot_history'))
    .addColumn('calling_id', 'integer', (c) => c.notNull().references('callings.id').onDelete('cascade'))
    .addColumn('slot_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('from_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('to_at', 'varchar(32)')
    .execute()
  await db.schema
    .createIndex('calling_slot_history_calling_idx')
    .on('calling_slot_history')
    .columns(['calling_id', 'slot_id'])
    .execute()
}

/** A CHECK on a column's range; names and bounds are constants of this file. */
function sqlRange(column: string, min: number, max: number) {
  return sql.raw(`${column} >= ${min} AND ${column} <= ${max}`)
}
