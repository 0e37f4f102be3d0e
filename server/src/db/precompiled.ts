import { CompiledQuery, type Compilable, type Kysely } from 'kysely'
import type { DB } from './schema.ts'
import { directSqlite } from './database.ts'

/**
 * A query built and compiled once per database, then run with new values:
 * for the hot path of every authenticated request, where Kysely's building
 * and compiling would cost more than the query itself. Values are named
 * placeholders, bound by name, so their order in the SQL does not matter.
 *
 * On SQLite, outside a transaction, the statement runs directly on the
 * connection (see `directSqlite`): Kysely's asynchronous driver path costs
 * several times what a small indexed query does.
 */
export function precompiled<Row, Names extends string>(
  names: readonly Names[],
  build: (db: Kysely<DB>, p: Record<Names, string>) => Compilable<Row>,
) {
  const bind = binder(names, build)
  return async (db: Kysely<DB>, values: Record<Names, unknown>): Promise<Row[]> => {
    const { sql, parameters } = bind(db, values)
    const direct = directSqlite(db)
    if (direct) return direct.execute<Row>(sql, parameters)
    return (await db.executeQuery<Row>(CompiledQuery.raw(sql, parameters) as CompiledQuery<Row>)).rows
  }
}

/** The same for a query of one column: its value in the first row, or undefined without a row. */
export function precompiledValue<T, Names extends string>(
  names: readonly Names[],
  build: (db: Kysely<DB>, p: Record<Names, string>) => Compilable<Record<string, T>>,
) {
  const bind = binder(names, build)
  return async (db: Kysely<DB>, values: Record<Names, unknown>): Promise<T | undefined> => {
    const { sql, parameters } = bind(db, values)
    const direct = directSqlite(db)
    if (direct) return direct.value<T>(sql, parameters)
    const [row] = (await db.executeQuery<Record<string, T>>(CompiledQuery.raw(sql, parameters) as CompiledQuery<Record<string, T>>)).rows
    return row === undefined ? undefined : Object.values(row)[0]
  }
}

/** Compiles once per database; binds named values into the compiled parameters. */
function binder<Row, Names extends string>(names: readonly Names[], build: (db: Kysely<DB>, p: Record<Names, string>) => Compilable<Row>) {
  const cache = new WeakMap<Kysely<DB>, CompiledQuery<Row>>()
  const marks = Object.fromEntries(names.map((n) => [n, `\u0001${n}\u0001`])) as Record<Names, string>
  const byMark = new Map<unknown, Names>(names.map((n) => [marks[n], n]))
  return (db: Kysely<DB>, values: Record<Names, unknown>): { sql: string; parameters: unknown[] } => {
    let compiled = cache.get(db)
    if (!compiled) {
      compiled = build(db, marks).compile()
      cache.set(db, compiled)
    }
    return { sql: compiled.sql, parameters: compiled.parameters.map((p) => (byMark.has(p) ? values[byMark.get(p)!] : p)) }
  }
}
