import { sql, type Kysely } from 'kysely'
import { dialectOf } from '../dialect.ts'

/**
 * Drops the three change counters and their triggers (migrations
 * 20261122000600_board_version, 20261123000100_auth_version,
 * 20261123000200_speaking_version). They fed in-process caches that are gone;
 * their triggers made every write to users, callings, slots, wards and
 * proposals also update one shared row, which PostgreSQL transactions took in
 * different orders and so deadlocked on (issue 12).
 *
 * The names below are the ones those migrations created: on PostgreSQL one
 * statement trigger `<table>_<counter>` per table and a function
 * `bump_<counter>()`; on SQLite one row trigger `<table>_<counter>_<event>`
 * per table and event.
 */
const COUNTERS: Record<string, readonly string[]> = {
  board_version: ['proposals', 'proposal_votes', 'proposal_interviews'],
  auth_version: ['users', 'user_permissions', 'calling_slots', 'calling_permissions', 'callings'],
  speaking_version: ['wards', 'callings', 'calling_slots', 'users', 'speaking_overrides', 'speaking_topics'],
}

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres'
  for (const [counter, tables] of Object.entries(COUNTERS)) {
    for (const table of tables) {
      if (postgres) {
        await sql`DROP TRIGGER IF EXISTS ${sql.raw(`${table}_${counter}`)} ON ${sql.table(table)}`.execute(db)
        continue
      }
      for (const event of ['insert', 'update', 'delete']) {
        await sql`DROP TRIGGER IF EXISTS ${sql.raw(`${table}_${counter}_${event}`)}`.execute(db)
      }
    }
    if (postgres) await sql`DROP FUNCTION IF EXISTS ${sql.raw(`bump_${counter}`)}()`.execute(db)
    await db.schema.dropTable(counter).ifExists().execute()
  }
}
