import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../db/database.ts'
import type { DB } from '../db/schema.ts'
import { isStakeTable, isTransferred, type TableDescriptor } from '../db/table.ts'

/**
 * The real schema as the declarations (modules/tables.ts) describe it, read
 * from the database itself: SQLite's sqlite_master, table_info and
 * foreign_key_list; on PostgreSQL information_schema, pg_constraint (foreign
 * keys), pg_class (row-level security and FORCE) and pg_policies.
 */
/** A foreign key as the database reports it: the child's columns, the parent table and its columns, in order. */
interface ActualForeignKey {
  from: readonly string[]
  parent: string
  to: readonly string[]
  onDelete: string
}

interface ActualTable {
  columns: ReadonlySet<string>
  foreignKeys?: readonly ActualForeignKey[]
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
    for (const [table, t] of schema) schema.set(table, { ...t, foreignKeys: await sqliteForeignKeys(db, table) })
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
  const keys = await sql<ActualForeignKey & { table: string }>`
    SELECT c.relname AS "table", p.relname AS parent,
      ARRAY(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY u(n, i)
            JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.i) AS "from",
      ARRAY(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY u(n, i)
            JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.i) AS "to",
      CASE k.confdeltype WHEN 'c' THEN 'cascade' WHEN 'n' THEN 'set null' WHEN 'd' THEN 'set default'
        WHEN 'r' THEN 'restrict' ELSE 'no action' END AS "onDelete"
    FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
    WHERE k.contype = 'f' AND c.relnamespace = current_schema()::regnamespace`.execute(db)
  for (const { table, ...key } of keys.rows) {
    const t = schema.get(table)
    if (t) schema.set(table, { ...t, foreignKeys: [...(t.foreignKeys ?? []), key] })
  }
  return schema
}

async function sqliteForeignKeys(db: Kysely<DB>, table: string): Promise<ActualForeignKey[]> {
  const { rows } = await sql<{ id: number; table: string; from: string; to: string | null; on_delete: string }>`
    SELECT id, "table", "from", "to", on_delete FROM pragma_foreign_key_list(${table}) ORDER BY id, seq`.execute(db)
  const keys = new Map<number, { from: string[]; parent: string; to: string[]; onDelete: string }>()
  for (const r of rows) {
    const key = keys.get(r.id) ?? { from: [], parent: r.table, to: [], onDelete: r.on_delete.toLowerCase() }
    key.from.push(r.from)
    key.to.push(r.to ?? 'id')
    keys.set(r.id, key)
  }
  return [...keys.values()]
}

/**
 * A foreign key between two stake-owned tables must carry the stake on both
 * sides, `(stake_id, x)` → `(stake_id, id)`, so the database refuses a row
 * pointing into another stake. The one exception: beside such a composite
 * key, a single-column key on the same columns that only nulls them on
 * delete (SQLite cannot null part of a composite key; PostgreSQL names the
 * column, `ON DELETE SET NULL (x)`, and needs no companion).
 */
function notComposite(table: string, keys: readonly ActualForeignKey[], stakeOwned: (t: string) => boolean): string[] {
  const carriesStake = (k: ActualForeignKey) => k.from.some((c, i) => c === 'stake_id' && k.to[i] === 'stake_id')
  return keys
    .filter((k) => stakeOwned(k.parent) && !carriesStake(k))
    .filter(
      (k) =>
        !(
          /^set (null|default)$/.test(k.onDelete) &&
          keys.some(
            (c) =>
              carriesStake(c) &&
              c.parent === k.parent &&
              c.from.filter((x) => x !== 'stake_id').join() === k.from.join() &&
              c.to.filter((x) => x !== 'stake_id').join() === k.to.join(),
          )
        ),
    )
    .map((k) => `${table}: foreign key (${k.from.join(', ')}) → ${k.parent} is not composite (stake_id, …)`)
}

const NOT_STAKE: TableDescriptor = { owner: 'deployment', why: 'not declared' }

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
    out.push(...notComposite(table, t.foreignKeys ?? [], (parent) => isStakeTable(declared[parent] ?? NOT_STAKE)))
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
