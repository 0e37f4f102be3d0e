// `npm run demo`: a fresh demo database (./data/demo.db, recreated each time),
// a demo stake made in it by `cli demo` through the service's own API, then the
// server on it, with the sign-ins printed once it answers (docs/demo.md).
// Always SQLite in ./data/demo.db, whatever DATABASE_URL says: a demo never
// touches the real database. `npm run cli -- demo` adds a demo stake to any.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const node = process.execPath
const compiled = ['--no-experimental-strip-types', '--conditions=stake-compiled']

function run(args, options = {}) {
  const result = spawnSync(node, args, { cwd: root, stdio: 'inherit', ...options })
  if (result.status !== 0) process.exit(result.status ?? 1)
  return result
}

run([path.join(root, 'scripts/build-if-changed.mjs')])

const file = path.join(root, 'data', 'demo.db')
fs.mkdirSync(path.dirname(file), { recursive: true })
for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true })
const env = { ...process.env, DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' }

console.log('Making the demo stake (about half a minute)...')
const made = run([...compiled, path.join(root, 'server/dist/cli.js'), 'demo', '--json'], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
})
const demo = JSON.parse(made.stdout.trim().split('\n').pop())
const { describeDemo } = await import(path.join(root, 'server/dist/demo/demo.describe.js'))

// The demo stake answers the anonymous pages (its public page, the wards list).
const memory = `--env-file=${path.join(root, 'server/node-memory.env')}`
const server = spawn(node, [memory, ...compiled, path.join(root, 'server/dist/main.js')], {
  cwd: root,
  env: { ...env, DEFAULT_STAKE_ID: String(demo.stake_id) },
  stdio: 'inherit',
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code) => process.exit(code ?? 0))

const port = Number(env.PORT ?? 8000)
const host = !env.HOST || env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST
const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
for (let i = 0; i < 600; i++) {
  const up = await fetch(`${base}/health`).then(
    (r) => r.ok,
    () => false,
  )
  if (up) {
    console.log(`\nThe demo is at ${base}/ (Ctrl-C stops it; the next npm run demo starts afresh).`)
    console.log(describeDemo(demo).replace(/\nDelete it.*$/s, ''))
    break
  }
  await new Promise((resolve) => setTimeout(resolve, 100))
}
