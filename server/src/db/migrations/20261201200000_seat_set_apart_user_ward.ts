import type { Kysely } from 'kysely'

/**
 * What an LCR report says that the stake now keeps (docs/api-reference.md §15):
 * a seat's set apart (its date YYYY-MM-DD, or "yes" when the report only
 * marks it), kept on the seat beside its holder and cleared when the seat is
 * emptied; and a person's ward (a member list's unit column), null when
 * unknown or when the ward is deleted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('calling_slots').addColumn('set_apart', 'varchar(10)').execute()
  await db.schema
    .alterTable('users')
    .addColumn('ward_id', 'integer', (c) => c.references('wards.id').onDelete('set null'))
    .execute()
  await db.schema.createIndex('users_ward_idx').on('users').column('ward_id').execute()
}
