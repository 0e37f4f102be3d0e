import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { dialect } from './test/harness.ts'
import { ADMIN_PASSWORD, adminToken, request, startServer, waitFor, type ServerProcess } from './test/process.ts'

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

// The cluster does not depend on the database; PostgreSQL's several processes
// are tested with several instances in security/instances.processes.test.ts.
describe(
  'WORKERS=2: two server processes share the port under one primary',
  { skip: dialect !== 'sqlite' && 'SQLite pass only' },
  () => {
    let dir: string
    let server: ServerProcess

    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-cluster-'))
      server = await startServer({
        WORKERS: '2',
        DATABASE_URL: `sqlite:${path.join(dir, 'stake.db')}`,
        BACKUP_DIR: path.join(dir, 'backups'),
        INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
        LOG_LEVEL: 'info',
      })
    })

    after(async () => {
      await server?.kill()
      for (const pid of server ? childrenOf(server.child.pid!) : []) process.kill(pid, 'SIGKILL')
      fs.rmSync(dir, { recursive: true, force: true })
    })

    it('migrates and makes the administrator once, prints the box once, and both workers serve', async () => {
      const out = server.output()
      assert.equal(out.split('Stake Administration Service is running at').length - 1, 1, out)
      assert.equal(out.split('"msg":"bootstrap administrator created"').length - 1, 1, out)
      assert.equal(childrenOf(server.child.pid!).length, 2)
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
    })

    it('replaces a worker that dies, and keeps answering meanwhile', async () => {
      const [victim, survivor] = childrenOf(server.child.pid!)
      process.kill(victim!, 'SIGKILL')
      const replaced = await waitFor(() => {
        const now = childrenOf(server.child.pid!)
        return now.length === 2 && !now.includes(victim!) && now.includes(survivor!)
      }, 30_000)
      assert.ok(replaced, `workers now: ${childrenOf(server.child.pid!).join(', ')}`)
      assert.ok(await waitFor(() => server.output().includes('"msg":"a worker stopped"'), 5_000))
      const listening = () => server.output().split('"msg":"Server listening at').length - 1
      assert.ok(await waitFor(() => listening() === 3, 30_000), 'the new worker never listened')
      for (let i = 0; i < 10; i++) assert.equal((await request(`${server.base}/health`)).status, 200)
    })

    it('SIGTERM to the primary drains every worker and exits 0 with none left', async () => {
      const workers = childrenOf(server.child.pid!)
      server.child.kill('SIGTERM')
      assert.equal(await server.exited, 0, server.output())
      for (const pid of workers) assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' })
    })
  },
)
