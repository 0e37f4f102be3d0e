import { sql, type Kysely } from 'kysely'
import { dialectOf } from '../dialect.ts'

/**
 * Foreign keys between stake-owned tables become composite: a child's
 * `(stake_id, x)` refers to its parent's `(stake_id, id)`, so the database
 * itself refuses a row that points into another stake (docs/api-reference.md
 * §14, "Past one database").
 *
 * Everything is read from the live schema, never from the table declarations
 * (a migration must do tomorrow what it does today): a table is stake-owned
 * here when it has a NOT NULL `stake_id` column, and every foreign key from
 * such a table to another such table that does not already start from
 * `stake_id` is rewritten, keeping its ON DELETE / ON UPDATE behaviour. Each
 * referenced table gets a unique key on `(stake_id, <its referenced columns>)`.
 *
 * A nulling action (SET NULL, SET DEFAULT) must not touch `stake_id`:
 * PostgreSQL names the column (`ON DELETE SET NULL (user_id)`); SQLite cannot,
 * so there the composite key takes NO ACTION and the old single-column key
 * stays beside it to do the nulling (checked at the end of the statement, the
 * composite key then sees a NULL and is satisfied).
 *
 * SQLite cannot alter a table's constraints: each table concerned is rebuilt
 * from its own `CREATE TABLE` text (every column, CHECK and other constraint
 * kept), its rows copied, its indexes and triggers re-created and its
 * AUTOINCREMENT counter kept, with foreign keys off during the rebuild and
 * `PRAGMA foreign_key_check` before commit. The rebuilt table's keys are
 * compared with what was intended, so a definition this code cannot read
 * stops the migration instead of losing a constraint.
 */

interface ForeignKey {
  table: string
  from: string[]
  parent: string
  to: string[]
  onDelete: string
  onUpdate: string
}

const NULLING = /^set (null|default)$/

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') await upPostgres(db)
  else await upSqlite(db)
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`
const list = (names: string[]) => names.map(quote).join(', ')
const uniqueName = (parent: string, to: string[]) => `${parent}_stake_${to.join('_')}_uq`.slice(0, 63)

/** The parents' unique keys, once per (table, columns). */
function parentKeys(fks: ForeignKey[]): Map<string, { parent: string; to: string[] }> {
  const keys = new Map<string, { parent: string; to: string[] }>()
  for (const fk of fks) keys.set(uniqueName(fk.parent, fk.to), { parent: fk.parent, to: fk.to })
  return keys
}

async function upPostgres(db: Kysely<any>): Promise<void> {
  const ACTIONS: Record<string, string> = {
    a: 'no action',
    r: 'restrict',
    c: 'cascade',
    n: 'set null',
    d: 'set default',
  }
  const { rows } = await sql<{
    name: string
    table: string
    parent: string
    from: string[]
    to: string[]
    del: string
    upd: string
    deferrable: boolean
    deferred: boolean
  }>`
    WITH stake_tables AS (
      SELECT a.attrelid AS oid, a.attnum AS stake_attnum FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
        AND a.attname = 'stake_id' AND a.attnotnull AND NOT a.attisdropped
    )
    SELECT con.conname AS name, child.relname AS "table", parent.relname AS parent,
      ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(n, i)
            JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.i)::text[] AS "from",
      ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(n, i)
            JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n ORDER BY k.i)::text[] AS "to",
      con.confdeltype AS del, con.confupdtype AS upd, con.condeferrable AS deferrable, con.condeferred AS deferred
    FROM pg_constraint con
    JOIN stake_tables cs ON cs.oid = con.conrelid
    JOIN stake_tables ps ON ps.oid = con.confrelid
    JOIN pg_class child ON child.oid = con.conrelid
    JOIN pg_class parent ON parent.oid = con.confrelid
    WHERE con.contype = 'f' AND NOT (cs.stake_attnum = ANY (con.conkey))
    ORDER BY child.relname, con.conname`.execute(db)

  const fks = rows.map((r) => ({ ...r, onDelete: ACTIONS[r.del]!, onUpdate: ACTIONS[r.upd]! }))
  for (const [name, { parent, to }] of parentKeys(fks)) {
    const unique = await sql<{ found: boolean }>`
      SELECT EXISTS (
        SELECT 1 FROM pg_index i
        WHERE i.indrelid = ${parent}::regclass AND i.indisunique AND i.indpred IS NULL AND i.indexprs IS NULL
          AND ARRAY(SELECT a.attname::text FROM pg_attribute a
                    WHERE a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey) ORDER BY 1)
            = ARRAY(SELECT unnest(${['stake_id', ...to]}::text[]) ORDER BY 1)
      ) AS found`.execute(db)
    if (unique.rows[0]?.found) continue
    await sql
      .raw(`ALTER TABLE ${quote(parent)} ADD CONSTRAINT ${quote(name)} UNIQUE ("stake_id", ${list(to)})`)
      .execute(db)
  }
  for (const fk of fks) {
    // PostgreSQL 15 nulls only the named columns on delete; ON UPDATE takes no column list.
    const onDelete = NULLING.test(fk.onDelete) ? `${fk.onDelete} (${list(fk.from)})` : fk.onDelete
    if (NULLING.test(fk.onUpdate))
      throw new Error(`${fk.table}.${fk.name}: ON UPDATE ${fk.onUpdate} cannot spare stake_id`)
    const timing = fk.deferrable ? ` DEFERRABLE INITIALLY ${fk.deferred ? 'DEFERRED' : 'IMMEDIATE'}` : ''
    await sql.raw(`ALTER TABLE ${quote(fk.table)} DROP CONSTRAINT ${quote(fk.name)}`).execute(db)
    await sql
      .raw(
        `ALTER TABLE ${quote(fk.table)} ADD CONSTRAINT ${quote(fk.name)} FOREIGN KEY ("stake_id", ${list(fk.from)}) ` +
          `REFERENCES ${quote(fk.parent)} ("stake_id", ${list(fk.to)}) ON DELETE ${onDelete} ON UPDATE ${fk.onUpdate}${timing}`,
      )
      .execute(db)
  }
}

// ---------------------------------------------------------------- SQLite

interface PragmaKey {
  id: number
  seq: number
  table: string
  from: string
  to: string | null
  on_update: string
  on_delete: string
}

async function sqliteStakeTables(db: Kysely<any>): Promise<Set<string>> {
  const { rows } = await sql<{ name: string }>`
    SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c
    WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND c.name = 'stake_id' AND c."notnull" = 1`.execute(db)
  return new Set(rows.map((r) => r.name))
}

/** A table's foreign keys as SQLite reports them, a missing parent column list resolved to the parent's primary key. */
async function sqliteKeys(db: Kysely<any>, table: string): Promise<ForeignKey[]> {
  const { rows } = await sql<PragmaKey>`SELECT * FROM pragma_foreign_key_list(${table}) ORDER BY id, seq`.execute(db)
  const byId = new Map<number, ForeignKey>()
  for (const r of rows) {
    const fk = byId.get(r.id) ?? {
      table,
      from: [],
      parent: r.table,
      to: [],
      onDelete: r.on_delete.toLowerCase(),
      onUpdate: r.on_update.toLowerCase(),
    }
    fk.from.push(r.from)
    if (r.to !== null) fk.to.push(r.to)
    byId.set(r.id, fk)
  }
  for (const fk of byId.values()) {
    if (fk.to.length) continue
    const pk = await sql<{ name: string }>`
      SELECT name FROM pragma_table_info(${fk.parent}) WHERE pk > 0 ORDER BY pk`.execute(db)
    fk.to = pk.rows.map((r) => r.name)
  }
  return [...byId.values()]
}

/** A key from a stake-owned table to another that does not carry the stake yet. */
const isStakeKey = (fk: ForeignKey, stakeTables: Set<string>) =>
  stakeTables.has(fk.parent) && !fk.from.includes('stake_id')

const signature = (fk: ForeignKey) =>
  `${fk.from.join(',')}>${fk.parent}(${fk.to.join(',')}) d:${fk.onDelete} u:${fk.onUpdate}`

/** The composite key replacing `fk`, and whether the single-column key stays to do a nulling action. */
function composite(fk: ForeignKey): { key: ForeignKey; keepSingle: boolean } {
  const keepSingle = NULLING.test(fk.onDelete) || NULLING.test(fk.onUpdate)
  const action = (a: string) => (NULLING.test(a) ? 'no action' : a)
  return {
    key: {
      table: fk.table,
      from: ['stake_id', ...fk.from],
      parent: fk.parent,
      to: ['stake_id', ...fk.to],
      onDelete: action(fk.onDelete),
      onUpdate: action(fk.onUpdate),
    },
    keepSingle,
  }
}

/** The top-level comma-separated items of a CREATE TABLE body (quotes and parentheses respected). */
function splitItems(body: string): string[] {
  const items: string[] = []
  let depth = 0
  let quoteChar: string | null = null
  let start = 0
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!
    if (quoteChar) {
      if (ch === quoteChar) quoteChar = null
    } else if (ch === '"' || ch === "'" || ch === '`') quoteChar = ch
    else if (ch === '[') quoteChar = ']'
    else if (ch === '(') depth++
    else if (ch === ')') depth--
    else if (ch === ',' && depth === 0) {
      items.push(body.slice(start, i).trim())
      start = i + 1
    }
  }
  items.push(body.slice(start).trim())
  return items
}

const IDENT = String.raw`(?:"(?:[^"]|"")+"|\[[^\]]+\]|\x60[^\x60]+\x60|[\w$]+)`
const TAIL = String.raw`(?:\s+on\s+(?:delete|update)\s+(?:set\s+null|set\s+default|cascade|restrict|no\s+action)|\s+match\s+\w+|\s+(?:not\s+)?deferrable(?:\s+initially\s+(?:deferred|immediate))?)*`
const INLINE_REF = new RegExp(
  String.raw`\s+(?:constraint\s+${IDENT}\s+)?references\s+(${IDENT})\s*(?:\([^)]*\))?${TAIL}`,
  'i',
)
const TABLE_FK = new RegExp(String.raw`^(?:constraint\s+${IDENT}\s+)?foreign\s+key\s*\(([^)]*)\)`, 'i')
const unquote = (name: string) =>
  name
    .trim()
    .replace(/^["[`]|["\]`]$/g, '')
    .replace(/""/g, '"')
const TABLE_CONSTRAINT = /^(constraint|primary|unique|check|foreign)\b/i

/**
 * `create` with the foreign keys in `drop` (by their child columns) removed
 * and the `add` keys appended as table constraints.
 */
function rewrite(create: string, table: string, drop: ForeignKey[], add: ForeignKey[]): string {
  const open = create.indexOf('(')
  const close = create.lastIndexOf(')')
  const dropped = new Set(drop.map((fk) => fk.from.join(',')))
  const items = splitItems(create.slice(open + 1, close)).flatMap((item) => {
    const tableFk = TABLE_FK.exec(item)
    if (tableFk) return dropped.has(tableFk[1]!.split(',').map(unquote).join(',')) ? [] : [item]
    if (TABLE_CONSTRAINT.test(item)) return [item]
    const column = unquote(new RegExp(`^${IDENT}`).exec(item)![0])
    return [dropped.has(column) ? item.replace(INLINE_REF, '') : item]
  })
  for (const fk of add) {
    items.push(
      `constraint ${quote(`${table}_${fk.from.slice(1).join('_')}_stake_fk`)} foreign key (${list(fk.from)}) ` +
        `references ${quote(fk.parent)} (${list(fk.to)}) on delete ${fk.onDelete} on update ${fk.onUpdate}`,
    )
  }
  return `CREATE TABLE ${quote(`${table}__composite`)} (${items.join(', ')})${create.slice(close + 1)}`
}

async function rebuild(db: Kysely<any>, table: string, keys: ForeignKey[], stakeTables: Set<string>): Promise<void> {
  const replaced = keys.filter((fk) => isStakeKey(fk, stakeTables)).map((fk) => ({ fk, ...composite(fk) }))
  const dropped = replaced.filter((r) => !r.keepSingle).map((r) => r.fk)
  const expected = [...keys.filter((fk) => !dropped.includes(fk)), ...replaced.map((r) => r.key)].map(signature).sort()

  const [{ sql: create }] = (
    await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ${table}`.execute(db)
  ).rows as [{ sql: string }]
  const dependents = await sql<{ sql: string }>`
    SELECT sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = ${table} AND sql IS NOT NULL
    ORDER BY type = 'trigger', name`.execute(db)
  const columns = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table}) ORDER BY cid`.execute(db)
  const sequence = await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = ${table}`
    .execute(db)
    .catch(() => ({ rows: [] as { seq: number }[] }))
  const temp = `${table}__composite`

  await sql
    .raw(
      rewrite(
        create,
        table,
        dropped,
        replaced.map((r) => r.key),
      ),
    )
    .execute(db)
  const actual = (await sqliteKeys(db, temp)).map(signature).sort()
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(
      `composite keys: could not rewrite ${table}: got ${actual.join('; ')}, wanted ${expected.join('; ')}`,
    )
  }
  const cols = list(columns.rows.map((c) => c.name))
  await sql.raw(`INSERT INTO ${quote(temp)} (${cols}) SELECT ${cols} FROM ${quote(table)}`).execute(db)
  await sql.raw(`DROP TABLE ${quote(table)}`).execute(db)
  await sql.raw(`ALTER TABLE ${quote(temp)} RENAME TO ${quote(table)}`).execute(db)
  for (const d of dependents.rows) await sql.raw(d.sql).execute(db)
  const seq = sequence.rows[0]?.seq
  if (seq !== undefined) {
    await sql`UPDATE sqlite_sequence SET seq = max(seq, ${seq}) WHERE name = ${table}`.execute(db)
    await sql`INSERT INTO sqlite_sequence (name, seq) SELECT ${table}, ${seq}
      WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ${table})`.execute(db)
  }
}

async function upSqlite(db: Kysely<any>): Promise<void> {
  await sql`PRAGMA foreign_keys = OFF`.execute(db)
  // The rebuilt table takes the old one's name without SQLite rewriting other tables' triggers or views.
  await sql`PRAGMA legacy_alter_table = ON`.execute(db)
  try {
    await sql`BEGIN`.execute(db)
    try {
      const stakeTables = await sqliteStakeTables(db)
      const all: ForeignKey[] = []
      for (const table of [...stakeTables].sort()) {
        const keys = await sqliteKeys(db, table)
        const stakeKeys = keys.filter((fk) => isStakeKey(fk, stakeTables))
        if (!stakeKeys.length) continue
        all.push(...stakeKeys)
        await rebuild(db, table, keys, stakeTables)
      }
      for (const [name, { parent, to }] of parentKeys(all)) {
        await sql
          .raw(`CREATE UNIQUE INDEX IF NOT EXISTS ${quote(name)} ON ${quote(parent)} ("stake_id", ${list(to)})`)
          .execute(db)
      }
      const broken = await sql`PRAGMA foreign_key_check`.execute(db)
      if (broken.rows.length) throw new Error(`composite keys: foreign keys broken: ${JSON.stringify(broken.rows)}`)
      await sql`COMMIT`.execute(db)
    } catch (error) {
      await sql`ROLLBACK`.execute(db)
      throw error
    }
  } finally {
    await sql`PRAGMA legacy_alter_table = OFF`.execute(db)
    await sql`PRAGMA foreign_keys = ON`.execute(db)
  }
}
