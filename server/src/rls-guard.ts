import { sql, type Kysely } from 'kysely'
import type { Config } from './config.ts'
import { createDatabase } from './database.ts'
import type { Database } from './db/database.ts'
import { dialectOf } from './db/dialect.ts'
import { migrate } from './db/migrate.ts'
import type { DB } from './db/schema.ts'
import { STAKE_TABLES } from './modules/tables.ts'

/**
 * The second wall between stakes (docs/SECURITY.md "Row-level security"):
 * PostgreSQL's row-level security holds only a role that does not bypass it.
 * A role bypasses it when it is a superuser, has BYPASSRLS, or owns a
 * stake-owned table that does not FORCE row-level security (or has it off).
 */
export async function rlsBypass(db: Kysely<DB>): Promise<string | null> {
  if (dialectOf(db) !== 'postgres') return null
  const tables = [...STAKE_TABLES]
  const { rows } = await sql<{ rolsuper: boolean; rolbypassrls: boolean; open: string | null }>`
    SELECT r.rolsuper, r.rolbypassrls,
      (SELECT string_agg(c.relname, ', ' ORDER BY c.relname)
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname = ANY(${tables})
          AND (NOT c.relrowsecurity OR (pg_has_role(current_user, c.relowner, 'USAGE') AND NOT c.relforcerowsecurity))
      ) AS open
    FROM pg_roles r WHERE r.rolname = current_user`.execute(db)
  const row = rows[0]
  if (!row) return null
  if (row.rolsuper) return 'a superuser'
  if (row.rolbypassrls) return 'a role with BYPASSRLS'
  if (row.open) return `the owner of tables without FORCE ROW LEVEL SECURITY (${row.open})`
  return null
}

/** The server will not serve several stakes behind one wall (S17). */
export class RlsRefusal extends Error {}

/**
 * At start: with more than one stake, a role that bypasses row-level security
 * stops the server unless ALLOW_RLS_BYPASS=true; otherwise (one stake, or
 * allowed) it is a warning.
 */
export async function checkRowSecurity(
  db: Kysely<DB>,
  config: Pick<Config, 'allowRlsBypass'>,
  warn: (message: string) => void,
): Promise<void> {
  const bypass = await rlsBypass(db)
  if (!bypass) return
  const { n } = await db
    .selectFrom('stakes')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow()
  const message =
    `The database role is ${bypass}: row-level security does not hold it, so stakes are kept apart by the ` +
    "queries' filters alone. Serve as a role that owns nothing (npm run cli -- db roles; README, PostgreSQL)"
  if (Number(n) > 1 && !config.allowRlsBypass) {
    throw new RlsRefusal(`${message}, or set ALLOW_RLS_BYPASS=true to start anyway.`)
  }
  warn(`${message}.`)
}

/**
 * Brings the schema up to date: as MIGRATION_DATABASE_URL's role (the tables'
 * owner) when it is set, so the serving role needs no right to change the schema.
 */
export async function migrateAsOwner(
  config: Pick<Config, 'migrationDatabaseUrl' | 'timeouts'>,
  database: Database,
): Promise<void> {
  if (!config.migrationDatabaseUrl) {
    await migrate(database.db)
    return
  }
  const owner = createDatabase(config.migrationDatabaseUrl, { timeouts: config.timeouts, poolSize: 1 })
  try {
    await migrate(owner.db)
  } finally {
    await owner.close()
  }
}
