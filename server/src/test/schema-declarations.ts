import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../db/database.ts'
import type { DB } from '../db/schema.ts'
import { isStakeTable, isTransferred, type TableDescriptor } from '../db/table.ts'

/**
 * The real schema as the declarations (modules/tables.ts) describe it, read
 * from the database itself: SQLite's sqlite_master and table_info; on
 * PostgreSQL information_schema, pg_class (row-level security and FORCE) and
 * pg_policies.
 */
interface ActualTable {
  columns: ReadonlySet<string>
  /** PostgreSQL only: ROW LEVEL SECURITY enabled and forced, and how many policies. */
  rls?: { enabled: boolean; forced: boolean; policies: number }
}
export type ActualSchema = ReadonlyMap<string, ActualTable>

/** Tables that are no domain's: Kysely's migration bookkeeping (and SQLite's own). */
const NOT_DECLARED = /^(kysely_migration|kysely_migration_lock|sqlite_.*)$/

export async function readSchema(db: Kysely<DB>, dialect: Dialect): Promise<ActualSchema> {
  const schema = new Map<string, ActualTable>()
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ table: string; column: string }>`
      SELECT m.name AS "table", c.name AS "column"
      FROM sqlite_master m JOIN pragma_table_info(m.name) c
      WHERE m.type = 'table'`.execute(db)
    for (const { table, column } of rows) {
      const t = schema.get(table) ?? { columns: new Set<string>() }
      ;(t.columns as Set<string>).add(column)
      schema.set(table, t)
    }
    return schema
  }
  const { rows } = await sql<{ table: string; column: string }>`
    SELECT c.table_name AS "table", c.column_name AS "column"
    FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'`.execute(db)
  const security = await sql<{ table: string; enabled: boolean; forced: boolean; policies: number }>`
    SELECT c.relname AS "table", c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced,
      (SELECT count(*) FROM pg_policies p WHERE p.schemaname = n.nspname AND p.tablename = c.relname) AS policies
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind = 'r'`.execute(db)
  const rls = new Map(security.rows.map((r) => [r.table, { ...r, policies: Number(r.policies) }]))
  for (const { table, column } of rows) {
    const t = schema.get(table) ?? { columns: new Set<string>(), rls: rls.get(table) }
    ;(t.columns as Set<string>).add(column)
    schema.set(table, t)
  }
  return schema
}

const OUTBOX_COLUMNS = ['id', 'status', 'attempts', 'next_attempt_at', 'last_error', 'created_at']

/**
 * Every way the declarations and the real schema disagree, one line each;
 * empty when they agree. `postgres`: also row-level security and its policy
 * on every stake-owned table.
 */
export function schemaDifferences(
  declared: Readonly<Record<string, TableDescriptor>>,
  actual: ActualSchema,
  dialect: Dialect,
): string[] {
  const out: string[] = []
  for (const [table, { columns }] of actual) {
    if (NOT_DECLARED.test(table)) continue
    const d = declared[table]
    if (!d) out.push(`${table}: in the database but not declared in any <domain>.tables.ts`)
    else if (columns.has('stake_id') && !isStakeTable(d) && !d.stakeColumn) {
      out.push(`${table}: has stake_id but is declared deployment-wide (declare it stake-owned, or say why not)`)
    }
  }
  for (const [table, d] of Object.entries(declared)) {
    const t = actual.get(table)
    if (!t) {
      out.push(`${table}: declared but not in the database`)
      continue
    }
    const missing = (what: string, names: readonly string[]) => {
      for (const c of names) if (!t.columns.has(c)) out.push(`${table}: declared ${what} ${c}, no such column`)
    }
    if (!isStakeTable(d)) {
      if (d.stakeColumn && !t.columns.has('stake_id')) out.push(`${table}: declares a stake_id column it does not have`)
      continue
    }
    if (!t.columns.has('stake_id')) out.push(`${table}: declared stake-owned but has no stake_id`)
    if (dialect === 'postgres') {
      if (!t.rls?.enabled) out.push(`${table}: stake-owned without row-level security`)
      if (!t.rls?.forced) out.push(`${table}: stake-owned without FORCE ROW LEVEL SECURITY`)
      if (!t.rls?.policies) out.push(`${table}: stake-owned without a row-level-security policy`)
    }
    if (isTransferred(d)) {
      const spec = d.transfer
      missing('exported reference', Object.keys(spec.refs ?? {}))
      missing('omitted column', spec.omit ?? [])
      missing('boolean', spec.booleans ?? [])
      missing('export order column', spec.orderBy)
      if (spec.id) missing('id', ['id'])
    }
    if (d.outbox) missing('outbox column', [...OUTBOX_COLUMNS, d.outbox.sentAt])
  }
  return out
}
