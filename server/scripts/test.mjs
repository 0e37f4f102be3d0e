// Runs the server suite on SQLite, then on PostgreSQL when a server answers.
// Test files are listed explicitly: node's runner given no files runs nothing.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'

const root = path.resolve(import.meta.dirname, '..')
const only = process.argv.slice(2)

function findTests(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return findTests(full)
    return entry.name.endsWith('.test.ts') ? [path.relative(root, full)] : []
  })
}

const files = (only.length ? only : findTests(path.join(root, 'src'))).sort()
if (files.length === 0) {
  console.error('No test files found under server/src')
  process.exit(1)
}

function run(label, env) {
  console.log(`\n=== Server tests on ${label} (${files.length} files) ===`)
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
    { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } },
  )
  return result.status === 0
}

async function postgresReachable(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    await client.query('select 1')
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

// main.compiled.test.ts runs the production build: compile it first when its sources changed.
const built = spawnSync(process.execPath, [path.join(root, '../scripts/build-if-changed.mjs'), 'server'], {
  cwd: path.join(root, '..'),
  stdio: 'inherit',
})
if (built.status !== 0) {
  console.error('Could not compile the server (server/dist)')
  process.exit(1)
}

const pgUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres'
// TEST_ONLY=sqlite|postgres runs one database's suite (a developer's shortcut; CI runs both).
const onlyDialect = process.env.TEST_ONLY ?? ''
let ok = onlyDialect === 'postgres' ? true : run('SQLite', { TEST_DIALECT: 'sqlite' })

/**
 * The server under test connects as this role: not a superuser and without
 * BYPASSRLS, so PostgreSQL's row-level security holds it (docs/api-reference.md
 * §14). Tests' own direct queries and migrations keep the superuser.
 */
const APP_ROLE = 'stake_test_app'

if (onlyDialect === 'sqlite') {
  // nothing more
} else if (await postgresReachable(pgUrl)) {
  const template = `stake_tpl_${process.pid}`
  const admin = new pg.Client({ connectionString: pgUrl })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${template}`)
  await admin.query(`CREATE DATABASE ${template}`)
  const url = new URL(pgUrl)
  url.pathname = `/${template}`
  const migrated = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'migrate'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: url.toString() },
  })
  if (migrated.status !== 0) {
    console.error('Could not migrate the PostgreSQL template database')
    ok = false
  } else {
    await admin.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${APP_ROLE}') THEN
        CREATE ROLE ${APP_ROLE} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
      END IF;
    END $$`)
    const tpl = new pg.Client({ connectionString: url.toString() })
    await tpl.connect()
    await tpl.query(`GRANT USAGE ON SCHEMA public TO ${APP_ROLE}`)
    await tpl.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${APP_ROLE}`)
    await tpl.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ${APP_ROLE}`)
    await tpl.end()
    ok =
      run('PostgreSQL', {
        TEST_DIALECT: 'postgres',
        TEST_PG_URL: pgUrl,
        TEST_PG_TEMPLATE: template,
        TEST_PG_APP_ROLE: APP_ROLE,
      }) && ok
  }
  const leftovers = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`${template}_f_%`])
  for (const { datname } of leftovers.rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`)
  await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`)
  await admin.end()
} else {
  const message = `PostgreSQL is not reachable at ${pgUrl.replace(/\/\/[^@]*@/, '//')}: skipped the PostgreSQL run (SQLite only).`
  if (process.env.REQUIRE_POSTGRES === '1') {
    console.error(`${message} REQUIRE_POSTGRES=1, so this is a failure.`)
    ok = false
  } else {
    console.log(`\n${message}`)
  }
}

process.exit(ok ? 0 : 1)
