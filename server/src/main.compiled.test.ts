import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { ADMIN_PASSWORD, COMPILED, adminToken, request, startServer } from './test/process.ts'

// The suite's runner (server/scripts/test.mjs) compiles server/dist first when its sources changed.
describe('production runs the compiled server with plain node', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-compiled-'))
  const env = {
    DATABASE_URL: `sqlite:${path.join(dir, 'stake.db')}`,
    INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
    ADMIN_EMAIL: 'admin@example.com',
    COOKIE_SECURE: 'false',
  }
  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('serves from server/dist with TypeScript refused (no loader, no type stripping)', async () => {
    assert.ok(fs.existsSync(COMPILED.main), 'server/dist/main.js exists (npm run build:server)')
    const server = await startServer(env, { compiled: true })
    try {
      const cmdline = fs.readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8').split('\0')
      assert.ok(cmdline.includes('--no-experimental-strip-types'), cmdline.join(' '))
      assert.ok(!cmdline.some((arg) => arg.includes('tsx')), cmdline.join(' '))
      assert.equal((await request(`${server.base}/health`)).status, 200)
      // A signed-in request crosses the modules, the contract package and the database.
      const token = await adminToken(server.base)
      const wards = await request(`${server.base}/api/wards`, { headers: { authorization: `Bearer ${token}` } })
      assert.equal(wards.status, 200)
    } finally {
      server.child.kill('SIGTERM')
      await server.exited
    }
  })

  it('runs the compiled CLI (migrate) the same way', () => {
    const result = spawnSync(process.execPath, [...COMPILED.args, COMPILED.cli, 'migrate'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    })
    assert.equal(result.status, 0, result.stderr)
    assert.match(result.stdout, /Database is up to date/)
  })

  it('holds no TypeScript and no import of a TypeScript file in server/dist', () => {
    const files = fs.readdirSync(path.dirname(COMPILED.main), { recursive: true, encoding: 'utf8' })
    assert.ok(files.some((f) => f.endsWith('.js')))
    assert.deepEqual(
      files.filter((f) => f.endsWith('.ts')),
      [],
    )
    for (const file of files.filter((f) => f.endsWith('.js'))) {
      const text = fs.readFileSync(path.join(path.dirname(COMPILED.main), file), 'utf8')
      assert.doesNotMatch(text, /from '\.{1,2}\/[^']*\.ts'/, file)
    }
  })
})
