import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { dialect } from '../test/harness.ts'
import { startServer, type ServerProcess } from '../test/process.ts'

const CLI = path.join(import.meta.dirname, '../cli.ts')

function cli(env: Record<string, string>, ...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
  })
  assert.equal(result.status, 0, `${args.join(' ')}: ${result.stdout}\n${result.stderr}`)
  return result.stdout
}

const secondStake = (url: string) =>
  cli(
    { DATABASE_URL: url },
    'stake',
    'create',
    '--name',
    'Second Stake',
    '--admin-email',
    `${crypto.randomUUID()}@example.org`,
  )

/**
 * S17 (docs/SECURITY.md "Row-level security"): with more than one stake on
 * PostgreSQL the server refuses to serve as a role that bypasses row-level
 * security, unless ALLOW_RLS_BYPASS=true; `db roles --apply` makes the owner
 * (migrations) and the serving role, and the server runs with both.
 */
describe('S17 the second wall is not optional', { skip: dialect !== 'postgres' && 'PostgreSQL only' }, () => {
  const adminUrl = process.env.TEST_PG_URL ?? ''
  const name = `${process.env.TEST_PG_TEMPLATE}_f_${crypto.randomBytes(6).toString('hex')}`
  const suffix = crypto.randomBytes(4).toString('hex')
  const owner = `stake_t_owner_${suffix}`
  const app = `stake_t_app_${suffix}`
  let superUrl = ''
  const servers: ServerProcess[] = []

  const query = async (url: string, text: string) => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      return (await client.query(text)).rows
    } finally {
      await client.end()
    }
  }

  before(async () => {
    await query(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${process.env.TEST_PG_TEMPLATE}`)
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    superUrl = url.toString()
  })
  after(async () => {
    for (const server of servers) await server.kill()
    await query(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await query(adminUrl, `DROP ROLE IF EXISTS ${app}`)
    await query(adminUrl, `DROP ROLE IF EXISTS ${owner}`)
  })

  it('one stake as the superuser: starts, with a warning', async () => {
    const server = await startServer({ DATABASE_URL: superUrl })
    servers.push(server)
    assert.match(server.output(), /a superuser: row-level security does not hold it/)
    await server.kill()
  })

  it('two stakes as the superuser: refuses to start; ALLOW_RLS_BYPASS=true starts it', async () => {
    secondStake(superUrl)
    await assert.rejects(
      startServer({ DATABASE_URL: superUrl }),
      /Refusing to start: .*superuser.*ALLOW_RLS_BYPASS=true/,
    )
    const server = await startServer({ DATABASE_URL: superUrl, ALLOW_RLS_BYPASS: 'true' })
    servers.push(server)
    assert.match(server.output(), /superuser/)
    await server.kill()
  })

  it('db roles --apply: migrations as the owner, the server as a role that owns nothing', async () => {
    const printed = cli({ DATABASE_URL: superUrl }, 'db', 'roles', '--owner', owner, '--app', app)
    assert.match(printed, new RegExp(`ALTER DEFAULT PRIVILEGES FOR ROLE ${owner}`))
    const out = cli({ DATABASE_URL: superUrl }, 'db', 'roles', '--apply', '--owner', owner, '--app', app)
    const ownerUrl = /^MIGRATION_DATABASE_URL=(.+)$/m.exec(out)?.[1]
    const appUrl = /^DATABASE_URL=(.+)$/m.exec(out)?.[1]
    assert.ok(ownerUrl && appUrl, out)
    const roles = await query(
      superUrl,
      `SELECT rolname, rolsuper, rolbypassrls FROM pg_roles WHERE rolname IN ('${owner}', '${app}') ORDER BY rolname`,
    )
    assert.deepEqual(
      roles.map((r) => [r.rolsuper, r.rolbypassrls]),
      [
        [false, false],
        [false, false],
      ],
    )
    const owned = await query(
      superUrl,
      `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public' AND tableowner = '${app}'`,
    )
    assert.equal(owned[0].n, 0, 'the serving role owns nothing')

    const server = await startServer({ DATABASE_URL: appUrl, MIGRATION_DATABASE_URL: ownerUrl })
    servers.push(server)
    assert.doesNotMatch(server.output(), /row-level security does not hold it/)
    const health = await fetch(`${server.base}/health`)
    assert.equal(health.status, 200)
    await server.kill()

    // The owner serving, with a table whose row-level security is not forced: refused.
    await query(superUrl, 'ALTER TABLE users NO FORCE ROW LEVEL SECURITY')
    await assert.rejects(startServer({ DATABASE_URL: ownerUrl }), /Refusing to start: .*owner of tables .*users/)
    await query(superUrl, 'ALTER TABLE users FORCE ROW LEVEL SECURITY')
  })
})

describe('S17 on SQLite: no roles, several stakes start', { skip: dialect !== 'sqlite' && 'SQLite only' }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-rls-'))
  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('starts with two stakes; db roles says it is for PostgreSQL', async () => {
    const url = `sqlite:${path.join(dir, 'stake.db')}`
    secondStake(url)
    const server = await startServer({ DATABASE_URL: url })
    await server.kill()
    const roles = spawnSync(process.execPath, ['--import', 'tsx', CLI, 'db', 'roles'], {
      env: { ...process.env, DATABASE_URL: url },
      encoding: 'utf8',
    })
    assert.equal(roles.status, 1)
    assert.match(roles.stderr, /for PostgreSQL/)
  })
})
