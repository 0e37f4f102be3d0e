import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { dialect } from './test/harness.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
const tsx = ['--import', 'tsx']

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [...tsx, path.join(here, 'main.ts')], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (c) => (output += c))
  child.stderr.on('data', (c) => (output += c))
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes('Stake Administration Service is running at http')) {
        clearInterval(timer)
        resolve()
      }
    }, 50)
    child.on('exit', (code) => {
      clearInterval(timer)
      reject(new Error(`server exited ${code}: ${output}`))
    })
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, ready, exited, output: () => output }
}

const cli = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, [...tsx, path.join(here, 'cli.ts'), ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  })

// Process-level behaviour does not depend on the database dialect: run once.
describe('the service as a process', { skip: dialect !== 'sqlite' && 'runs in the SQLite pass only' }, () => {
  it('first start creates the database and prints the one-time admin password once; SIGTERM exits 0', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-main-'))
    const env = {
      DATABASE_URL: `sqlite:${path.join(dir, 'data', 'stake.db')}`,
      PORT: String(18500 + Math.floor(Math.random() * 400)),
    }
    const first = startServer(env)
    await first.ready
    const match = first.output().match(/One-time password:\s+(\S+)/)
    assert.ok(match, 'password printed')
    const health = await fetch(`http://127.0.0.1:${env.PORT}/api/health`)
    assert.equal(health.status, 200)
    const login = await fetch(`http://127.0.0.1:${env.PORT}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'admin@example.com', password: match[1]! }).toString(),
    })
    assert.equal(login.status, 200)
    first.child.kill('SIGTERM')
    assert.equal(await first.exited, 0)
    assert.ok(!first.output().includes(String((await login.json()).access_token)), 'the token is never logged')

    const second = startServer(env)
    await second.ready
    assert.ok(!/One-time password/.test(second.output()), 'not printed again')
    second.child.kill('SIGINT')
    assert.equal(await second.exited, 0)
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('stops with a one-line message on a bad configuration value', () => {
    const result = spawnSync(process.execPath, [...tsx, path.join(here, 'main.ts')], {
      env: { ...process.env, PORT: 'eighty' },
      encoding: 'utf8',
    })
    assert.notEqual(result.status, 0)
    assert.match(result.stderr.trim(), /^Configuration error: PORT must be an integer/)
    assert.equal(result.stderr.trim().split('\n').length, 1)
  })

  it('CLI: migrate, create-user with permissions, reset-password', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-cli-'))
    const env = { DATABASE_URL: `sqlite:${path.join(dir, 'stake.db')}` }
    assert.equal(cli(['migrate'], env).status, 0)
    const created = cli(
      ['create-user', 'clerk@example.org', 'Carl', 'Clerk', '--permissions', 'wards.manage,users.manage'],
      env,
    )
    assert.equal(created.status, 0, created.stderr)
    assert.match(created.stdout, /Created user \d+ <clerk@example.org> with one-time password: \S+/)
    const duplicate = cli(['create-user', 'CLERK@example.org', 'C', 'C'], env)
    assert.notEqual(duplicate.status, 0)
    const badPermission = cli(['create-user', 'x@example.org', 'X', 'Y', '--permissions', 'root'], env)
    assert.notEqual(badPermission.status, 0)
    assert.match(badPermission.stderr, /unknown permission/)
    const reset = cli(['reset-password', 'clerk@example.org', '--password', 'a-brand-new-passphrase'], env)
    assert.equal(reset.status, 0, reset.stderr)
    assert.equal(cli(['reset-password', 'nobody@example.org'], env).status, 1)
    assert.equal(cli(['no-such-command'], env).status, 1)
    fs.rmSync(dir, { recursive: true, force: true })
  })
})
