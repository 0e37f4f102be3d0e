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
  const cache = new WeakMap<Kysely<DB>, CompiledQuery<Row>>()
  const marks = Object.fromEntries(names.map((n) => [n, `\u0001${n}\u0001`])) as Record<Names, string>
  const byMark = new Map<unknown, Names>(names.map((n) => [marks[n], n]))
  return async (db: Kysely<DB>, values: Record<Names, unknown>): Promise<Row[]> => {
    let compiled = cache.get(db)
    if (!compiled) {
      compiled = build(db, marks).compile()
      cache.set(db, compiled)
    }
    const parameters = compiled.parameters.map((p) => (byMark.has(p) ? values[byMark.get(p)!] : p))
    const direct = directSqlite(db)
    if (direct) return direct.execute<Row>(compiled.sql, parameters)
    const result = await db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, parameters as unknown[]) as CompiledQuery<Row>)
    return result.rows
  }
}
