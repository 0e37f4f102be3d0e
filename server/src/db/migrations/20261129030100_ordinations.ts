import { sql, type Kysely } from 'kysely'
import { dialectOf } from '../dialect.ts'

const STAGES = [
  'sp_approval',
  'hc_approval',
  'interview',
  'sustain',
  'set_apart',
  'ordain',
  'record',
  'done',
  'declined',
]
const OLD_LIST = `'set_apart', 'record'`
const NEW_LIST = `'set_apart', 'ordain', 'record'`

/** CHECK (<column> IN (<the stage names>)); names and values are constants of this file. */
const stageCheck = (column: string) => sql.raw(`${column} IN (${STAGES.map((s) => `'${s}'`).join(', ')})`)

/** The stage columns whose CHECK lists the stages (migration 20261122000400_proposals); votes never sit at `ordain`. */
const STAGE_COLUMNS: Array<[table: string, column: string]> = [
  ['proposals', 'stage'],
  ['proposal_history', 'from_stage'],
  ['proposal_history', 'to_stage'],
]

/**
 * Ordinations (docs/api-reference.md §18): `proposals.kind` (`call`,
 * `release`, `ordination`; existing rows take `release` when is_release, else
 * `call`, and the two can never disagree), `proposals.office` (an
 * ordination's office, null for the other kinds), and the stage `ordain`
 * admitted by the stage CHECKs. Webhook deliveries keep the kind and office
 * of their proposal at the event.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres'
  await db.schema
    .alterTable('proposals')
    .addColumn('kind', 'varchar(12)', (c) => c.notNull().defaultTo('call'))
    .execute()
  await db.schema.alterTable('proposals').addColumn('office', 'varchar(12)').execute()
  // A webhook delivery keeps the proposal's facts as they were at the event (docs/api-reference.md §11).
  await db.schema.alterTable('webhook_deliveries').addColumn('kind', 'varchar(12)').execute()
  await db.schema.alterTable('webhook_deliveries').addColumn('office', 'varchar(12)').execute()
  await sql`UPDATE proposals SET kind = 'release' WHERE is_release = ${postgres ? sql`true` : sql`1`}`.execute(db)
  if (postgres) await upPostgres(db)
  else await upSqlite(db)
}

const KIND_CHECKS = [
  `kind IN ('call', 'release', 'ordination')`,
  `(kind = 'release') = is_release`,
  `(kind = 'ordination') = (office IS NOT NULL)`,
  `office IS NULL OR office IN ('elder', 'high_priest')`,
]

async function upPostgres(db: Kysely<any>): Promise<void> {
  for (const [table, column] of STAGE_COLUMNS) {
    // The CHECKs were named by PostgreSQL (<table>_<column>_check); find them rather than guess.
    const found = await sql<{ conname: string }>`
      SELECT conname FROM pg_constraint
      WHERE conrelid = ${table}::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE ${`%${column}%`}`.execute(
      db,
    )
    for (const { conname } of found.rows)
      await sql`ALTER TABLE ${sql.table(table)} DROP CONSTRAINT ${sql.ref(conname)}`.execute(db)
    await sql`ALTER TABLE ${sql.table(table)} ADD CONSTRAINT ${sql.ref(`${table}_${column}_check`)} CHECK (${stageCheck(column)})`.execute(
      db,
    )
  }
  for (const [i, check] of KIND_CHECKS.entries())
    await sql`ALTER TABLE proposals ADD CONSTRAINT ${sql.ref(`proposals_kind_check_${i + 1}`)} CHECK (${sql.raw(check)})`.execute(
      db,
    )
}

/**
 * SQLite cannot alter a CHECK: the two tables are rebuilt from their own
 * CREATE statement with the wider stage list and the kind CHECKs (new table,
 * copy, drop, rename, indexes and triggers again), foreign keys off for the
 * rebuild and checked before commit, as in migration 20261128000100_stakes.
 */
async function upSqlite(db: Kysely<any>): Promise<void> {
  await sql`PRAGMA foreign_keys = OFF`.execute(db)
  try {
    await sql`BEGIN`.execute(db)
    try {
      for (const table of ['proposals', 'proposal_history']) {
        const [create] = (
          await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ${table}`.execute(db)
        ).rows
        if (!create || !create.sql.includes(OLD_LIST))
          throw new Error(`ordinations migration: ${table} is not as expected`)
        const extras = await sql<{ sql: string }>`
          SELECT sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = ${table} AND sql IS NOT NULL`.execute(
          db,
        )
        let statement = create.sql
          .split(OLD_LIST)
          .join(NEW_LIST)
          .replace(/^CREATE TABLE "?\w+"?/, `CREATE TABLE "${table}__new"`)
        if (table === 'proposals')
          statement = statement.replace(/\)\s*$/, `, ${KIND_CHECKS.map((c) => `CHECK (${c})`).join(', ')})`)
        await sql.raw(statement).execute(db)
        await sql.raw(`INSERT INTO "${table}__new" SELECT * FROM "${table}"`).execute(db)
        await sql.raw(`DROP TABLE "${table}"`).execute(db)
        await sql.raw(`ALTER TABLE "${table}__new" RENAME TO "${table}"`).execute(db)
        for (const extra of extras.rows) await sql.raw(extra.sql).execute(db)
      }
      const broken = await sql`PRAGMA foreign_key_check`.execute(db)
      if (broken.rows.length)
        throw new Error(`ordinations migration: foreign keys broken: ${JSON.stringify(broken.rows)}`)
      await sql`COMMIT`.execute(db)
    } catch (error) {
      await sql`ROLLBACK`.execute(db)
      throw error
    }
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db)
  }
}
