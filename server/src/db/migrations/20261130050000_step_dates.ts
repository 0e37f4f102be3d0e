import type { Kysely } from 'kysely'

/**
 * The day a step happened (set apart, ordained, recorded), as the person who
 * records it says (YYYY-MM-DD; default the day it is recorded): it may differ
 * from the row's `at`, which is when it was entered. Null on other rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('proposal_history').addColumn('on_date', 'varchar(10)').execute()
}
