import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { restartDelayMs } from './cluster.ts'
import { dialect, pgAdmin } from './test/harness.ts'
import {
  ADMIN_PASSWORD,
  adminToken,
  createWard,
  request,
  spawnServer,
  startServer,
  waitFor,
  type ServerProcess,
} from './test/process.ts'

const NODE = fs.realpathSync(process.execPath)

/** The node processes whose parent is `pid` (Linux's /proc; tsx's esbuild helper is not one). */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // pid (comm) state ppid …: comm may hold spaces, so read after its closing parenthesis.
        const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8')
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
        return parent === pid && fs.realpathSync(`/proc/${name}/exe`) === NODE
      } catch {
        return false // ended meanwhile
      }
    })
    .map(Number)
}

/**
 * The open connections to `port` that process `pid` holds, from the OS
 * (/proc): which worker a connection went to is seen without the service
 * saying anything about itself to a client.
 */
function connectionsHeldBy(pid: number, port: number): number {
  const inodes = new Set<string>()
  try {
    for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
      const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`)
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1]
      if (inode) inodes.add(inode)
    }
  } catch {
    return 0 // ended meanwhile
  }
  // sl local_address rem_address st … inode: the listening socket is state 0A, a connection 01.
  return fs
    .readFileSync(`/proc/${pid}/net/tcp`, 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f.length > 9 && Number.parseInt(f[1]!.split(':')[1]!, 16) === port && f[3] === '01')
    .filter((f) => inodes.has(f[9]!)).length
}

/** Opens `count` connections at once (one GET /health each) and keeps them open until `close`. */
async function openConnections(base: string, count: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: count })
  const statuses = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<number>((resolve, reject) => {
          http
            .get(`${base}/health`, { agent }, (res) => {
              res.resume()
              res.on('end', () => resolve(res.statusCode ?? 0))
            })
            .on('error', reject)
        }),
    ),
  )
  return { statuses, close: () => agent.destroy() }
}

/** A database the cluster starts from empty (its primary migrates it): a SQLite file, or a new PostgreSQL database. */
async function emptyDatabase(dir: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') return { url: `sqlite:${path.join(dir, 'stake.db')}`, drop: async () => {} }
  // Named like the harness's databases, so scripts/test.mjs drops it if the file crashes.
  const name = `${process.env.TEST_PG_TEMPLATE}_f_${crypto.randomBytes(6).toString('hex')}`
  await pgAdmin(`CREATE DATABASE ${name}`)
  const url = new URL(process.env.TEST_PG_URL!)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => pgAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

/** Each worker loads the whole app: on a machine busy with other work, that alone may take most of a minute. */
const START_MS = 180_000

const count = (text: string, needle: string) => text.split(needle).length - 1

describe('WORKERS=2: two server processes share the port under one primary', () => {
  let dir: string
  let database: Awaited<ReturnType<typeof emptyDatabase>>
  let server: ServerProcess
  let port: number

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-cluster-'))
    database = await emptyDatabase(dir)
    server = await startServer(
      {
        WORKERS: '2',
        DATABASE_URL: database.url,
        BACKUP_DIR: path.join(dir, 'backups'),
        INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
        // The day's jobs are due at once in every worker: only one may run them.
        DAILY_HOUR: '0',
        SHUTDOWN_DRAIN_MS: '100',
        LOG_LEVEL: 'info',
      },
      { waitMs: START_MS },
    )
    port = Number(new URL(server.base).port)
  })

  after(async () => {
    await server?.kill()
    for (const pid of server ? childrenOf(server.child.pid!) : []) process.kill(pid, 'SIGKILL')
    await database?.drop()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('migrates and makes the administrator once, prints the box once, and both workers answer', async () => {
    const out = server.output()
    assert.equal(count(out, 'Stake Administration Service is running at'), 1, out)
    assert.equal(count(out, '"msg":"bootstrap administrator created"'), 1, out)
    const workers = childrenOf(server.child.pid!)
    assert.equal(workers.length, 2)
    const token = await adminToken(server.base)
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        request(`${server.base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } }),
      ),
    )
    assert.deepEqual(
      answers.map((r) => r.status),
      Array(20).fill(200),
    )
    // Writes from both processes at once: on SQLite they take turns at the file's lock (WAL, busy timeout).
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createWard(server.base, token, `Cluster ward ${i}`)),
    )
    assert.deepEqual(
      created.map((r) => r.status),
      Array(12).fill(201),
    )
    // The primary hands each new connection to the next worker: eight go four and four.
    const held = await openConnections(server.base, 8)
    try {
      assert.deepEqual(held.statuses, Array(8).fill(200))
      for (const pid of workers) assert.ok(connectionsHeldBy(pid, port) > 0, `worker ${pid} holds no connection`)
      assert.equal(connectionsHeldBy(server.child.pid!, port), 0, 'the primary serves nothing itself')
    } finally {
      held.close()
    }
  })

  it('replaces a worker that dies, and keeps answering meanwhile', async () => {
    const [victim, survivor] = childrenOf(server.child.pid!)
    process.kill(victim!, 'SIGKILL')
    assert.ok(await waitFor(() => server.output().includes('"msg":"a worker stopped"'), 5_000))
    // Until the new one listens, the survivor takes every connection.
    for (let i = 0; i < 10; i++) assert.equal((await request(`${server.base}/health`)).status, 200)
    assert.match(server.output(), /"restart_in_ms":\d+,"msg":"a worker stopped"/)
    const replaced = await waitFor(() => {
      const now = childrenOf(server.child.pid!)
      return now.length === 2 && !now.includes(victim!) && now.includes(survivor!)
    }, START_MS)
    assert.ok(replaced, `workers now: ${childrenOf(server.child.pid!).join(', ')}`)
    const listening = () => count(server.output(), '"msg":"Server listening at')
    assert.ok(await waitFor(() => listening() === 3, START_MS), 'the new worker never listened')
    const newcomer = childrenOf(server.child.pid!).find((pid) => pid !== survivor)!
    const held = await openConnections(server.base, 8)
    try {
      assert.deepEqual(held.statuses, Array(8).fill(200))
      assert.ok(connectionsHeldBy(newcomer, port) > 0, 'the new worker takes no connection')
    } finally {
      held.close()
    }
  })

  it('runs the day’s jobs once, though all three workers found them due', async () => {
    const ran = () => count(server.output(), '"msg":"daily jobs done"')
    assert.ok(await waitFor(() => ran() > 0, 30_000), 'the daily jobs never ran')
    // Each worker checks at its start (with its first housekeeping round); the third started last, after the first run.
    const rounds = () => count(server.output(), '"msg":"housekeeping: purged expired rows"')
    assert.ok(await waitFor(() => rounds() >= 3, 60_000), 'a worker never started its jobs')
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    assert.equal(ran(), 1, server.output())
  })

  it('SIGTERM to the primary drains every worker and exits 0 with none left', async () => {
    const workers = childrenOf(server.child.pid!)
    server.child.kill('SIGTERM')
    assert.equal(await server.exited, 0, server.output())
    for (const pid of workers) assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' })
  })
})

describe('WORKERS=2 when no worker can start', { skip: dialect !== 'sqlite' && 'SQLite pass only' }, () => {
  it('waits longer before each restart, then gives up and exits 1 (the port is taken)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-cluster-'))
    const taken = net.createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const server = await spawnServer({
      WORKERS: '2',
      PORT: String((taken.address() as net.AddressInfo).port),
      DATABASE_URL: `sqlite:${path.join(dir, 'stake.db')}`,
      BACKUP_DIR: path.join(dir, 'backups'),
      LOG_LEVEL: 'info',
    })
    try {
      assert.equal(await server.exited, 1, server.output())
      const delays = [...server.output().matchAll(/"restart_in_ms":(\d+)/g)].map((m) => Number(m[1]))
      assert.deepEqual(delays, [1, 2, 3, 4].map(restartDelayMs))
      assert.deepEqual(delays, [500, 1000, 2000, 4000])
      assert.match(server.output(), /giving up/)
    } finally {
      await server.kill()
      for (const pid of childrenOf(server.child.pid!)) process.kill(pid, 'SIGKILL')
      await new Promise((resolve) => taken.close(resolve))
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
