import type { Kysely } from 'kysely'
import { sealStakeTable, withStakeId } from '../dialect.ts'

/**
 * interview_places: where an interviewer holds interviews ("Stake offices",
 * a video link), one row per interviewer who said; shown on the booking page
 * once a time is booked and written into its calendar file.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withStakeId(db, db.schema.createTable('interview_places'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('place', 'varchar(300)', (c) => c.notNull())
    .addPrimaryKeyConstraint('interview_places_pk', ['stake_id', 'user_id'])
    .execute()
  await sealStakeTable(db, 'interview_places')
}
