import { sql, type Kysely } from 'kysely'

/**
 * Each user's language (docs/api-reference.md §11, docs/api-reference.md §13): the web client's language once
 * chosen in the profile, and the language of the notifications and mail sent
 * to the user. English until chosen.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('language', 'varchar(2)', (c) =>
      c
        .notNull()
        .defaultTo('en')
        .check(sql`language IN ('en', 'es')`),
    )
    .execute()
}
