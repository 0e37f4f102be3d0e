import { slugChoice, slugOf } from '@stake/contract'
import { sql, type Kysely } from 'kysely'
import { dialectOf } from '../dialect.ts'

/**
 * Each stake's address (docs/api-reference.md §14): `slug`, unique in the
 * deployment, its public page `/s/<slug>`. Existing stakes take theirs from
 * their names, oldest first, a taken one followed by `-2`, `-3`… as a new
 * stake's is made. The column's empty default only serves this migration
 * (SQLite adds a NOT NULL column only with one); every insert names a slug.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('stakes')
    .addColumn('slug', 'varchar(60)', (c) => c.notNull().defaultTo(''))
    .execute()
  const stakes = await db.selectFrom('stakes').select(['id', 'name']).orderBy('id').execute()
  const taken = new Set<string>()
  for (const stake of stakes as { id: number; name: string }[]) {
    const base = slugOf(stake.name)
    let n = 1
    while (taken.has(slugChoice(base, n))) n += 1
    const slug = slugChoice(base, n)
    taken.add(slug)
    await db.updateTable('stakes').set({ slug }).where('id', '=', stake.id).execute()
  }
  if (dialectOf(db) === 'postgres') await sql`ALTER TABLE stakes ALTER COLUMN slug DROP DEFAULT`.execute(db)
  await db.schema.createIndex('stakes_slug_uq').on('stakes').column('slug').unique().execute()
}
