import { sql, type Kysely } from 'kysely'

/**
 * Sustainings and records (docs/api-reference.md §12).
 *
 * - `proposals.scope`: 'ward' (presented in its own ward) or 'stake'
 *   (presented in every ward).
 * - `proposals.releases`: the people released with this change, a JSON array
 *   of `{fname, lname, calling, calling_id?, user_id?}` kept as text; it is
 *   always read and written whole with its proposal.
 * - `proposals.calling_id` / `user_id`: the calling and the user that
 *   recording the proposal seats (or, for a release, unseats). A deleted
 *   calling or user leaves the proposal unlinked rather than blocked.
 * - `proposal_presentations`: one row per ward where the proposal was
 *   presented; the primary key (proposal_id, ward_id) is the "presented
 *   once per ward" rule (409 already_presented). A deleted ward takes its
 *   presentations with it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('proposals')
    .addColumn('scope', 'varchar(5)', (c) =>
      c
        .notNull()
        .defaultTo('ward')
        .check(sql`scope IN ('ward', 'stake')`),
    )
    .execute()
  await db.schema
    .alterTable('proposals')
    .addColumn('releases', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute()
  await db.schema
    .alterTable('proposals')
    .addColumn('calling_id', 'integer', (c) => c.references('callings.id').onDelete('set null'))
    .execute()
  await db.schema
    .alterTable('proposals')
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute()

  await db.schema
    .createTable('proposal_presentations')
    .addColumn('proposal_id', 'integer', (c) => c.notNull().references('proposals.id').onDelete('cascade'))
    .addColumn('ward_id', 'integer', (c) => c.notNull().references('wards.id').onDelete('cascade'))
    /** The Sunday it was presented, YYYY-MM-DD in the stake's time zone. */
    .addColumn('at', 'varchar(10)', (c) => c.notNull())
    .addColumn('by_user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('proposal_presentations_pk', ['proposal_id', 'ward_id'])
    .execute()
  await db.schema
    .createIndex('proposal_presentations_ward_idx')
    .on('proposal_presentations')
    .column('ward_id')
    .execute()
}
