import crypto from 'node:crypto'
import { sql } from 'kysely'
import type { CliCommand } from '../../cli.types.ts'

/**
 * `npm run cli -- db roles [--apply] [--owner NAME] [--app NAME]` (S17,
 * README "PostgreSQL"): the two roles row-level security needs. The owner
 * owns the tables and runs the migrations (MIGRATION_DATABASE_URL); the
 * server serves as the app role, which owns nothing, is no superuser and has
 * no BYPASSRLS, so the stakes' policies hold it. Without --apply the SQL is
 * printed for a database administrator; with it, it is run over
 * DATABASE_URL (a superuser or a CREATEROLE role) and the two connection
 * URLs are printed once, with new passwords.
 */

const NAME = /^[a-z_][a-z0-9_]{0,62}$/

function option(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(name)
  const value = i === -1 ? fallback : (args[i + 1] ?? '')
  if (!NAME.test(value)) throw new Error(`${name} must be a plain role name (a-z, 0-9, _), got "${value}"`)
  return value
}

const quoted = (password: string) => `'${password.replace(/'/g, "''")}'`

/** The statements, in order (placeholders for the passwords when printed). */
function rolesSql(owner: string, app: string, database: string, passwords: { owner: string; app: string }) {
  const create = (role: string, password: string) => `DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${role}') THEN
    CREATE ROLE ${role} LOGIN PASSWORD ${quoted(password)} NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
END $$`
  return [
    `-- The tables' owner: runs the migrations (MIGRATION_DATABASE_URL)`,
    create(owner, passwords.owner),
    `-- The server's role (DATABASE_URL): owns nothing, held by row-level security`,
    create(app, passwords.app),
    `GRANT CONNECT ON DATABASE "${database}" TO ${owner}, ${app}`,
    `GRANT USAGE, CREATE ON SCHEMA public TO ${owner}`,
    `GRANT USAGE ON SCHEMA public TO ${app}`,
    `-- Tables already there pass to the owner (the migrations FORCE row-level security on them)`,
    `DO $$ DECLARE r record; BEGIN
  FOR r IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' LOOP
    EXECUTE format('ALTER TABLE public.%I OWNER TO ${owner}', r.tablename);
  END LOOP;
END $$`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${app}`,
    `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ${app}`,
    `-- Tables later migrations create: the same rights, given as they are created`,
    `ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${app}`,
    `ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ${app}`,
  ]
}

export const DB_ROLES_CLI: CliCommand[] = [
  {
    name: 'db',
    usage: 'db roles [--apply] [--owner N] [--app N]',
    description: 'PostgreSQL: print (or create) the owner and the serving role with their grants',
    async run(database, args, config) {
      if (args[0] !== 'roles') {
        console.error('Usage: npm run cli -- db roles [--apply] [--owner NAME] [--app NAME]')
        return 1
      }
      if (database.dialect !== 'postgres') {
        console.error('db roles is for PostgreSQL (DATABASE_URL=postgres://...); SQLite has no roles')
        return 1
      }
      const owner = option(args, '--owner', 'stake_owner')
      const app = option(args, '--app', 'stake_app')
      if (owner === app) throw new Error('--owner and --app must be two roles')
      const url = new URL(config.databaseUrl)
      const name = decodeURIComponent(url.pathname.slice(1)) || 'postgres'
      if (!args.includes('--apply')) {
        const statements = rolesSql(owner, app, name, { owner: '<owner password>', app: '<app password>' })
        console.log(statements.map((s) => (s.startsWith('--') ? s : `${s};`)).join('\n'))
        return 0
      }
      const existing = await sql<{ rolname: string }>`
        SELECT rolname FROM pg_roles WHERE rolname IN (${owner}, ${app})`.execute(database.db)
      const had = new Set(existing.rows.map((r) => r.rolname))
      const passwords = {
        owner: crypto.randomBytes(24).toString('base64url'),
        app: crypto.randomBytes(24).toString('base64url'),
      }
      await database.db.connection().execute(async (db) => {
        for (const statement of rolesSql(owner, app, name, passwords)) {
          if (!statement.startsWith('--')) await sql.raw(statement).execute(db)
        }
      })
      const urlFor = (role: string, password: string) => {
        const u = new URL(config.databaseUrl)
        u.username = role
        u.password = password
        return u.toString()
      }
      for (const [variable, role, password] of [
        ['MIGRATION_DATABASE_URL', owner, passwords.owner],
        ['DATABASE_URL', app, passwords.app],
      ] as const) {
        console.log(
          had.has(role)
            ? `# ${role} existed already: its password is unchanged (grants applied)`
            : `${variable}=${urlFor(role, password)}`,
        )
      }
      return 0
    },
  },
]
