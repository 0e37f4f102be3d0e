import { sql, type Kysely } from 'kysely'
import { dialectOf } from '../dialect.ts'

/** Every table whose rows the board shows (docs/api-reference.md §7): the cards, their vote counts and my_vote, their interview. */
const BOARD_TABLES = ['proposals', 'proposal_votes', 'proposal_interviews'] as const

/**
 * A counter of changes to what GET /calling-kanban/board shows. Triggers bump
 * it inside every transaction that inserts, updates or deletes a proposal, a
 * vote or an interview (cascades included), so no code path can forget to,
 * and it commits or rolls back with the change. Each instance of the service
 * keeps serialized boards keyed by this counter, and so sees every other
 * instance's writes on its next request. The board shows ward and user ids
 * only, so renames elsewhere leave it alone.
 *
 * PostgreSQL: one statement-level trigger per table. SQLite has only row
 * triggers, one per event.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('board_version')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute()
  await db.insertInto('board_version').values({ id: 1, version: 0 }).execute()

  if (dialectOf(db) === 'postgres') {
    await sql`
      CREATE FUNCTION bump_board_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE board_version SET version = version + 1 WHERE id = 1;
        RETURN NULL;
      END
      $$`.execute(db)
    for (const table of BOARD_TABLES) {
      await sql`
        CREATE TRIGGER ${sql.raw(`${table}_board_version`)}
        AFTER INSERT OR UPDATE OR DELETE ON ${sql.table(table)}
        FOR EACH STATEMENT EXECUTE FUNCTION bump_board_version()`.execute(db)
    }
    return
  }
  for (const table of BOARD_TABLES) {
    for (const event of ['insert', 'update', 'delete'] as const) {
      await sql`
        CREATE TRIGGER ${sql.raw(`${table}_board_version_${event}`)}
        AFTER ${sql.raw(event.toUpperCase())} ON ${sql.table(table)}
        BEGIN UPDATE board_version SET version = version + 1 WHERE id = 1; END`.execute(db)
    }
  }
}
