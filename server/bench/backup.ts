// `npx tsx bench/backup.ts`: how long `npm run cli -- backup` takes on the big
// stake's SQLite database while a server serves it with 8 clients writing, and
// how large the backup is. Works on a copy of the benchmark's stake.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseConfig } from '../src/config.ts'
import { takeBackup } from '../src/modules/ops/backup.ts'
import { ADMIN_EMAIL, PASSWORD } from './stake-data.ts'
import { startServer } from './server-process.ts'
import { ensureStake, stakeUrl, type Stake } from './stake-store.ts'

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/cli.ts')
const log = (line: string) => process.stderr.write(`${line}\n`)

const big: Stake = {
  dialect: 'sqlite',
  name: 'big',
  size: { open: 1000, closed: 20000 },
  url: stakeUrl('sqlite', 'big'),
}
log(`big stake: ${await ensureStake(big, parseConfig({}).argon2)}`)
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-backup-bench-'))
const file = path.join(work, 'stake.sqlite')
fs.copyFileSync(big.url.slice('sqlite:'.length), file)
const url = `sqlite:${file}`
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)
log(`database: ${mb(fs.statSync(file).size)} MB`)

const server = await startServer(url)
try {
  const login = await fetch(`${server.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: ADMIN_EMAIL, password: PASSWORD }).toString(),
  })
  const token = ((await login.json()) as { access_token: string }).access_token
  let writing = true
  let writes = 0
  const writers = Array.from({ length: 8 }, async (_, w) => {
    for (let n = 0; writing; n++) {
      const res = await fetch(`${server.baseUrl}/api/wards`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Bench Backup ${w}-${n}`, start_time: 540 }),
      })
      await res.text()
      if (res.status === 201) writes++
    }
  })
  await new Promise((r) => setTimeout(r, 500))
  for (let round = 1; round <= 3; round++) {
    const started = performance.now()
    const before = writes
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', cli, 'backup', '--out', path.join(work, 'backups')], {
        env: { ...process.env, DATABASE_URL: url },
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      let text = ''
      child.stdout.on('data', (chunk) => (text += chunk))
      child.on('close', (code) => (code === 0 ? resolve(text.trim()) : reject(new Error(`backup exited ${code}`))))
    })
    const seconds = ((performance.now() - started) / 1000).toFixed(2)
    log(
      `cli backup ${round}: ${seconds} s (process start included), ${mb(fs.statSync(out).size)} MB, ${writes - before} writes served meanwhile`,
    )
  }
  // What the daily job does in the server process: the backup alone, without the CLI's start-up.
  for (let round = 1; round <= 3; round++) {
    const started = performance.now()
    const before = writes
    const out = await takeBackup({ databaseUrl: url, backupDir: path.join(work, 'backups') })
    const ms = (performance.now() - started).toFixed(0)
    log(`takeBackup ${round}: ${ms} ms, ${mb(fs.statSync(out).size)} MB, ${writes - before} writes served meanwhile`)
  }
  writing = false
  await Promise.all(writers)
} finally {
  await server.stop()
  fs.rmSync(work, { recursive: true, force: true })
}
