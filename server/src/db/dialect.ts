import { SqliteAdapter, type CreateTableBuilder, type Kysely } from 'kysely'
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
