import type { Kysely } from 'kysely'

/**
 * GET /calling-kanban/proposals?q= matched `lower(...)` of the columns in
 * SQL, which SQLite applies to ASCII letters only ("élodie" did not find
 * "Élodie"). Like users.email_key and callings.name_key, the lower-cased text
 * is now computed by the application (JavaScript's full Unicode case
 * mapping) and stored: "fname lname", "lname fname", the spouse name and the
 * proposed calling, one per line.
 *
 * The backfill repeats the application's rule here on purpose: a migration
 * must keep doing what it did when it was written.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('proposals')
    .addColumn('search_key', 'text', (c) => c.notNull().defaultTo(''))
    .execute()
  const rows = await db
    .selectFrom('proposals')
    .select(['id', 'fname', 'lname', 'spouse_name', 'proposed_calling'])
    .execute()
  for (const row of rows) {
    const key = [`${row.fname} ${row.lname}`, `${row.lname} ${row.fname}`, row.spouse_name ?? '', row.proposed_calling]
      .join('\n')
      .toLowerCase()
    await db.updateTable('proposals').set({ search_key: key }).where('id', '=', row.id).execute()
  }
}
