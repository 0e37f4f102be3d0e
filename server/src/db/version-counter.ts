import { sql, type Kysely } from 'kysely'
import { dialectOf } from './dialect.ts'

/**
 * A change counter: a one-row table `<name>` whose `version` database
 * triggers bump inside every transaction that inserts, updates or deletes a
 * row of `tables` (cascades included). No code path can forget to bump it, and
 * the bump commits or rolls back with the change, so a value read from it
 * says "nothing these tables hold has changed since" on every instance of the
 * service sharing the database. Caches key their entries by it.
 *
 * PostgreSQL: one statement-level trigger per table. SQLite has only row
 * triggers: one per table and event.
 *
 * Used only by the landed migrations 20261123000100 and 20261123000200, so
 * what it creates must never change. The counters are dropped again by
 * 20261124000100_drop_change_counters: nothing reads them any more.
 */
export async function createVersionCounter(db: Kysely<any>, name: string, tables: readonly string[]): Promise<void> {
  await db.schema
    .createTable(name)
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute()
  await db.insertInto(name).values({ id: 1, version: 0 }).execute()

  if (dialectOf(db) === 'postgres') {
    const bump = `bump_${name}`
    await sql`
      CREATE FUNCTION ${sql.raw(bump)}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE ${sql.raw(name)} SET version = version + 1 WHERE id = 1;
        RETURN NULL;
      END
      $$`.execute(db)
    for (const table of tables) {
      await sql`
        CREATE TRIGGER ${sql.raw(`${table}_${name}`)}
        AFTER INSERT OR UPDATE OR DELETE ON ${sql.table(table)}
        FOR EACH STATEMENT EXECUTE FUNCTION ${sql.raw(bump)}()`.execute(db)
    }
    return
  }
  for (const table of tables) {
    for (const event of ['insert', 'update', 'delete'] as const) {
      await sql`
        CREATE TRIGGER ${sql.raw(`${table}_${name}_${event}`)}
        AFTER ${sql.raw(event.toUpperCase())} ON ${sql.table(table)}
        BEGIN UPDATE ${sql.raw(name)} SET version = version + 1 WHERE id = 1; END`.execute(db)
    }
  }
}
