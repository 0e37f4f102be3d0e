import { sql, type Kysely } from 'kysely'
import { dialectOf } from '../dialect.ts'

/**
 * The stake-owned tables as they were when this migration was written: a table
 * added to stake-scope.ts's STAKE_TABLES later is created by its own migration
 * (with withStakeId and sealStakeTable), after this one ran.
 */
const STAKE_TABLES: readonly string[] = [
  'users',
  'user_permissions',
  'sessions',
  'session_retired_tokens',
  'wards',
  'callings',
  'calling_permissions',
  'calling_slots',
  'calling_slot_history',
  'proposals',
  'proposal_history',
  'proposal_votes',
  'proposal_interviews',
  'proposal_comments',
  'proposal_presentations',
  'speaking_overrides',
  'speaking_topics',
  'speaking_feeds',
  'notifications',
  'notification_preferences',
  'mail_outbox',
  'proposal_reminders',
  'auto_reminders',
  'daily_runs',
  'webhooks',
  'webhook_events',
  'webhook_deliveries',
  'audit_log',
]

/**
 * Many stakes on one deployment (docs/api-reference.md §14).
 *
 * - `stakes`: one row per stake with the settings that used to be environment
 *   variables. Stake 1 takes over every existing row, with the settings the
 *   environment gives now (STAKE_NAME, STAKE_TIMEZONE, SP_APPROVALS_REQUIRED,
 *   HC_APPROVALS_REQUIRED, HIGH_COUNCIL_SEATS, with config.ts's defaults);
 *   `settings_from_env` keeps it following them until someone saves the
 *   stake's settings in the app, so an install run by environment variables
 *   behaves as before.
 * - `stake_id` on every stake-owned table (stake-scope.ts lists them), first
 *   in the indexes that range over a whole stake (the board's stages, the
 *   lists by date, the audit log), and in the unique keys that were
 *   deployment-wide: ward and calling names, a calling's system key, a
 *   month's speaking topic, a day's daily run. Emails stay unique across the
 *   deployment (signing in finds the stake by email).
 * - PostgreSQL: row-level security on every stake-owned table (FORCE, so the
 *   tables' owner is held too), on the connection setting `app.stake_id`: a
 *   stake id, or `all` for work across stakes. No setting, no rows. New rows
 *   take their stake from the same setting when the statement names none.
 */
const env = (name: string, fallback: string) => process.env[name]?.trim() || fallback
const intEnv = (name: string, fallback: number, min: number, max: number) => {
  const value = Number(process.env[name])
  return Number.isInteger(value) && value >= min && value <= max ? value : fallback
}

/** Indexes that range over a stake's rows: stake_id goes first. */
const RESCOPED_INDEXES: Array<[name: string, table: string, columns: string[]]> = [
  ['proposals_stage_idx', 'proposals', ['stage', 'stage_changed_at']],
  ['proposals_submitted_idx', 'proposals', ['submitted_at', 'id']],
  ['proposals_stage_submitted_idx', 'proposals', ['stage', 'submitted_at', 'id']],
  ['audit_log_at_idx', 'audit_log', ['at', 'id']],
  ['audit_log_action_idx', 'audit_log', ['action', 'at', 'id']],
]

/** Tables whose deployment-wide unique keys become per stake (SQLite rebuilds them: its inline constraints cannot be dropped). */
const SQLITE_REBUILT: Record<string, { create: string; columns: string[] }> = {
  wards: {
    create: `CREATE TABLE "wards" ("id" integer primary key autoincrement, "name" varchar(100) not null, "name_key" varchar(100) not null, "start_time" integer not null check (start_time >= 0 AND start_time <= 1439), "created_at" varchar(32) not null, "updated_at" varchar(32) not null, "speaking_sunday" integer default 1 not null check (speaking_sunday >= 1 AND speaking_sunday <= 5), "stake_id" integer not null references "stakes" ("id"), constraint "wards_name_uq" unique ("stake_id", "name_key"))`,
    columns: ['id', 'name', 'name_key', 'start_time', 'created_at', 'updated_at', 'speaking_sunday'],
  },
  callings: {
    create: `CREATE TABLE "callings" ("id" integer primary key autoincrement, "name" varchar(100) not null, "name_key" varchar(100) not null, "key" varchar(50), "is_public" boolean not null, "system_defined" boolean not null, "max_slots" integer not null, "created_at" varchar(32) not null, "updated_at" varchar(32) not null, "stake_id" integer not null references "stakes" ("id"), constraint "callings_name_uq" unique ("stake_id", "name_key"), constraint "callings_key_uq" unique ("stake_id", "key"))`,
    columns: ['id', 'name', 'name_key', 'key', 'is_public', 'system_defined', 'max_slots', 'created_at', 'updated_at'],
  },
  speaking_topics: {
    create: `CREATE TABLE "speaking_topics" ("year" integer not null, "month" integer not null, "topic" varchar(200) not null, "reference" varchar(2000), "updated_at" varchar(32) not null, "stake_id" integer not null references "stakes" ("id"), constraint "speaking_topics_pk" primary key ("stake_id", "year", "month"), constraint "speaking_topics_year_ck" check (year >= 2000 AND year <= 2100), constraint "speaking_topics_month_ck" check (month >= 1 AND month <= 12))`,
    columns: ['year', 'month', 'topic', 'reference', 'updated_at'],
  },
  daily_runs: {
    create: `CREATE TABLE "daily_runs" ("day" varchar(10) not null, "started_at" varchar(32) not null, "finished_at" varchar(32), "stake_id" integer not null references "stakes" ("id"), constraint "daily_runs_pk" primary key ("stake_id", "day"))`,
    columns: ['day', 'started_at', 'finished_at'],
  },
}

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres'
  const now = new Date().toISOString()
  await db.schema
    .createTable('stakes')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) =>
      postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('timezone', 'varchar(64)', (c) => c.notNull())
    .addColumn('language', 'varchar(2)', (c) =>
      c
        .notNull()
        .defaultTo('en')
        .check(sql`language IN ('en', 'es')`),
    )
    .addColumn('sp_approvals_required', 'integer', (c) => c.notNull())
    .addColumn('hc_approvals_required', 'integer', (c) => c.notNull())
    .addColumn('high_council_seats', 'integer', (c) => c.notNull())
    .addColumn('settings_from_env', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()
  await db
    .insertInto('stakes')
    .values({
      id: 1,
      name: env('STAKE_NAME', 'Our Stake'),
      timezone: env('STAKE_TIMEZONE', 'America/Denver'),
      language: 'en',
      sp_approvals_required: intEnv('SP_APPROVALS_REQUIRED', 2, 1, 3),
      hc_approvals_required: intEnv('HC_APPROVALS_REQUIRED', 3, 1, 100),
      high_council_seats: intEnv('HIGH_COUNCIL_SEATS', 12, 1, 100),
      settings_from_env: true,
      created_at: now,
      updated_at: now,
    })
    .execute()

  if (postgres) await upPostgres(db)
  else await upSqlite(db)

  for (const [name, table, columns] of RESCOPED_INDEXES) {
    await db.schema.dropIndex(name).execute()
    await db.schema
      .createIndex(name)
      .on(table)
      .columns(['stake_id', ...columns])
      .execute()
  }
}

async function upPostgres(db: Kysely<any>): Promise<void> {
  await sql`SELECT setval(pg_get_serial_sequence('stakes', 'id'), 1)`.execute(db)
  // The stake of the current statement: `app.stake_id` when it holds a stake id, else NULL.
  await sql`
    CREATE FUNCTION app_stake_id() RETURNS integer LANGUAGE sql STABLE AS $$
      SELECT CASE WHEN current_setting('app.stake_id', true) ~ '^[0-9]+$'
                  THEN current_setting('app.stake_id', true)::integer END
    $$`.execute(db)
  await sql`
    CREATE FUNCTION app_all_stakes() RETURNS boolean LANGUAGE sql STABLE AS $$
      SELECT coalesce(current_setting('app.stake_id', true), '') = 'all'
    $$`.execute(db)
  for (const table of STAKE_TABLES) {
    const t = sql.table(table)
    await sql`ALTER TABLE ${t} ADD COLUMN stake_id integer NOT NULL DEFAULT 1 REFERENCES stakes (id)`.execute(db)
    await sql`ALTER TABLE ${t} ALTER COLUMN stake_id SET DEFAULT app_stake_id()`.execute(db)
    await sql`ALTER TABLE ${t} ENABLE ROW LEVEL SECURITY`.execute(db)
    await sql`ALTER TABLE ${t} FORCE ROW LEVEL SECURITY`.execute(db)
    await sql`
      CREATE POLICY stake_isolation ON ${t}
      USING (app_all_stakes() OR stake_id = app_stake_id())
      WITH CHECK (app_all_stakes() OR stake_id = app_stake_id())`.execute(db)
  }
  await sql`ALTER TABLE wards DROP CONSTRAINT wards_name_key_key`.execute(db)
  await sql`ALTER TABLE wards ADD CONSTRAINT wards_name_uq UNIQUE (stake_id, name_key)`.execute(db)
  await sql`ALTER TABLE callings DROP CONSTRAINT callings_name_key_key`.execute(db)
  await sql`ALTER TABLE callings DROP CONSTRAINT callings_key_key`.execute(db)
  await sql`ALTER TABLE callings ADD CONSTRAINT callings_name_uq UNIQUE (stake_id, name_key)`.execute(db)
  await sql`ALTER TABLE callings ADD CONSTRAINT callings_key_uq UNIQUE (stake_id, key)`.execute(db)
  await sql`ALTER TABLE speaking_topics DROP CONSTRAINT speaking_topics_pk`.execute(db)
  await sql`ALTER TABLE speaking_topics ADD CONSTRAINT speaking_topics_pk PRIMARY KEY (stake_id, year, month)`.execute(
    db,
  )
  await sql`ALTER TABLE daily_runs DROP CONSTRAINT daily_runs_pkey`.execute(db)
  await sql`ALTER TABLE daily_runs ADD CONSTRAINT daily_runs_pk PRIMARY KEY (stake_id, day)`.execute(db)
}

/**
 * SQLite: ADD COLUMN for most tables; the four tables whose unique keys change
 * are rebuilt (new table, copy, drop, rename), with foreign keys off for the
 * rebuild and checked before commit, as SQLite's documentation prescribes.
 * Kysely runs SQLite migrations outside a transaction; this one opens its own.
 */
async function upSqlite(db: Kysely<any>): Promise<void> {
  await sql`PRAGMA foreign_keys = OFF`.execute(db)
  try {
    await sql`BEGIN`.execute(db)
    try {
      for (const table of STAKE_TABLES) {
        if (SQLITE_REBUILT[table]) continue
        await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN stake_id integer NOT NULL DEFAULT 1 REFERENCES stakes (id)`.execute(
          db,
        )
      }
      for (const [table, { create, columns }] of Object.entries(SQLITE_REBUILT)) {
        const indexes = await sql<{ sql: string }>`
          SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ${table} AND sql IS NOT NULL`.execute(db)
        const list = columns.map((c) => `"${c}"`).join(', ')
        await sql.raw(create.replace(`CREATE TABLE "${table}"`, `CREATE TABLE "${table}__new"`)).execute(db)
        await sql.raw(`INSERT INTO "${table}__new" (${list}, "stake_id") SELECT ${list}, 1 FROM "${table}"`).execute(db)
        await sql.raw(`DROP TABLE "${table}"`).execute(db)
        await sql.raw(`ALTER TABLE "${table}__new" RENAME TO "${table}"`).execute(db)
        for (const index of indexes.rows) await sql.raw(index.sql).execute(db)
      }
      const broken = await sql`PRAGMA foreign_key_check`.execute(db)
      if (broken.rows.length) throw new Error(`stakes migration: foreign keys broken: ${JSON.stringify(broken.rows)}`)
      await sql`COMMIT`.execute(db)
    } catch (error) {
      await sql`ROLLBACK`.execute(db)
      throw error
    }
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db)
  }
}
