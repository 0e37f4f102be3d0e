import { SqliteAdapter, sql, type CreateTableBuilder, type Kysely } from 'kysely'
import type { Dialect } from './database.ts'

export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres'
}

/** An auto-increment integer primary key named `id`, per dialect. */
export function withId<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, never>) {
  return dialectOf(db) === 'sqlite'
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    : table.addColumn('id', 'serial', (c) => c.primaryKey())
}

/**
 * The stake column of a new stake-owned table (declare the table with
 * `stakeTable` in its domain's `<domain>.tables.ts` too, db/table.ts). PostgreSQL: defaults to the statement's stake, and
 * call `sealStakeTable` after creating the table; SQLite: the scope plugin
 * always writes it.
 */
export function withStakeId<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, never>) {
  return dialectOf(db) === 'sqlite'
    ? table.addColumn('stake_id', 'integer', (c) => c.notNull().references('stakes.id'))
    : table.addColumn('stake_id', 'integer', (c) =>
        c
          .notNull()
          .references('stakes.id')
          .defaultTo(sql`app_stake_id()`),
      )
}

/** PostgreSQL's second wall for a new stake-owned table: row-level security on `app.stake_id`. No-op on SQLite. */
export async function sealStakeTable(db: Kysely<any>, table: string): Promise<void> {
  if (dialectOf(db) === 'sqlite') return
  const t = sql.table(table)
  await sql`ALTER TABLE ${t} ENABLE ROW LEVEL SECURITY`.execute(db)
  await sql`ALTER TABLE ${t} FORCE ROW LEVEL SECURITY`.execute(db)
  await sql`
    CREATE POLICY stake_isolation ON ${t}
    USING (app_all_stakes() OR stake_id = app_stake_id())
    WITH CHECK (app_all_stakes() OR stake_id = app_stake_id())`.execute(db)
}
