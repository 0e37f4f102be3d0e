import { sql, type Kysely } from 'kysely'
import { sealStakeTable, withId, withStakeId } from '../dialect.ts'

/**
 * Appointments and the Sunday plan (docs/api-reference.md §18).
 *
 * - appointment_windows: an interviewer's weekly windows (`weekday` 0–6) and
 *   dated exceptions (`date`, `open` adds time, otherwise it is taken away),
 *   in minutes of the stake's local day.
 * - appointment_offers: a booking link; only the SHA-256 of its token is kept.
 * - appointments: the one booking of an offer (UNIQUE offer_id).
 * - appointment_blocks: the quarter hours an appointment holds. Their primary
 *   key (stake, interviewer, quarter) is what decides that a time is never
 *   given twice: of two concurrent bookings of overlapping times exactly one
 *   insert succeeds, on both databases.
 * - sunday_assignments: presidency ward visits and stake conference sessions.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withStakeId(
    db,
    withId(db, db.schema.createTable('appointment_windows'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('weekday', 'integer', (c) => c.check(sql`weekday >= 0 AND weekday <= 6`))
      .addColumn('date', 'varchar(10)')
      .addColumn('start_minute', 'integer', (c) => c.notNull().check(sql`start_minute >= 0 AND start_minute <= 1440`))
      .addColumn('end_minute', 'integer', (c) => c.notNull().check(sql`end_minute >= 0 AND end_minute <= 1440`))
      .addColumn('open', 'boolean', (c) => c.notNull())
      .addCheckConstraint('appointment_windows_one_day', sql`(weekday IS NULL) <> (date IS NULL)`),
  ).execute()
  await db.schema
    .createIndex('appointment_windows_user')
    .on('appointment_windows')
    .columns(['stake_id', 'user_id'])
    .execute()
  await sealStakeTable(db, 'appointment_windows')

  await withStakeId(
    db,
    withId(db, db.schema.createTable('appointment_offers'))
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('kind', 'varchar(32)', (c) => c.notNull())
      .addColumn('proposal_id', 'integer', (c) => c.references('proposals.id').onDelete('set null'))
      .addColumn('person_name', 'varchar(200)', (c) => c.notNull())
      .addColumn('email', 'varchar(254)')
      .addColumn('phone', 'varchar(40)')
      .addColumn('interviewer_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('duration_minutes', 'integer', (c) => c.notNull())
      .addColumn('created_by', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull()),
  ).execute()
  await sealStakeTable(db, 'appointment_offers')

  await withStakeId(
    db,
    withId(db, db.schema.createTable('appointments'))
      .addColumn('offer_id', 'integer', (c) =>
        c.notNull().unique().references('appointment_offers.id').onDelete('cascade'),
      )
      .addColumn('interviewer_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('starts_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('ends_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('reminded_at', 'varchar(32)'),
  ).execute()
  await db.schema
    .createIndex('appointments_interviewer_start')
    .on('appointments')
    .columns(['stake_id', 'interviewer_id', 'starts_at'])
    .execute()
  await sealStakeTable(db, 'appointments')

  await withStakeId(db, db.schema.createTable('appointment_blocks'))
    .addColumn('interviewer_id', 'integer', (c) => c.notNull())
    .addColumn('block_start', 'varchar(32)', (c) => c.notNull())
    .addColumn('appointment_id', 'integer', (c) => c.notNull().references('appointments.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('appointment_blocks_pk', ['stake_id', 'interviewer_id', 'block_start'])
    .execute()
  await db.schema
    .createIndex('appointment_blocks_appointment')
    .on('appointment_blocks')
    .column('appointment_id')
    .execute()
  await sealStakeTable(db, 'appointment_blocks')

  await withStakeId(
    db,
    withId(db, db.schema.createTable('sunday_assignments'))
      .addColumn('date', 'varchar(10)', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'varchar(32)', (c) => c.notNull())
      .addColumn('ward_id', 'integer', (c) => c.references('wards.id').onDelete('cascade'))
      .addColumn('session', 'varchar(100)')
      .addColumn('start_minute', 'integer', (c) => c.notNull().check(sql`start_minute >= 0 AND start_minute <= 1439`))
      .addColumn('duration_minutes', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull()),
  ).execute()
  await db.schema
    .createIndex('sunday_assignments_date')
    .on('sunday_assignments')
    .columns(['stake_id', 'date'])
    .execute()
  await sealStakeTable(db, 'sunday_assignments')
}
