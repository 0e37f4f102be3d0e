import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { dialect } from '../../test/harness.ts'
import { ADMIN_PASSWORD, adminToken, createWard, request, startServer, type ServerProcess } from '../../test/process.ts'

/** Mounts a small tmpfs, or says why it cannot (not root, no mount permission). */
function mountSmallDisk(): { dir: string } | { skip: string } {
  if (process.getuid?.() !== 0) return { skip: 'needs root to mount a small tmpfs' }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-full-'))
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir], { encoding: 'utf8' })
  if (mounted.status !== 0) {
    fs.rmdirSync(dir)
    return { skip: `cannot mount a tmpfs here: ${mounted.stderr.trim()}` }
  }
  return { dir }
}

/** Writes to `file` until the file system refuses, down to the last page. */
function fillDisk(file: string): void {
  const fd = fs.openSync(file, 'w')
  try {
    for (const size of [1024 * 1024, 64 * 1024, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size, 1)
      for (let i = 0; i < 64; i++) {
        try {
          fs.writeSync(fd, chunk)
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
          break
        }
      }
    }
  } finally {
    fs.closeSync(fd)
  }
}

// SQLite only (PostgreSQL's disk is not ours to fill).
const disk = dialect === 'sqlite' ? mountSmallDisk() : { skip: 'SQLite pass only' }

describe('SQLite on a full disk (a process on a small tmpfs)', { skip: 'skip' in disk && disk.skip }, () => {
  const dir = 'dir' in disk ? disk.dir : ''
  const filler = path.join(dir, 'filler')
  let server: ServerProcess
  let token: string

  before(async () => {
    server = await startServer({
      DATABASE_URL: `sqlite:${path.join(dir, 'stake.db')}`,
      INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
      SHUTDOWN_DRAIN_MS: '100',
    })
    token = await adminToken(server.base)
  })

  after(async () => {
    await server?.kill()
    spawnSync('umount', [dir])
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('answers writes 503 unavailable while reads go on, /ready is 503, and recovers once space is freed', async () => {
    assert.equal((await createWard(server.base, token, 'Before the disk filled')).status, 201)
    // The migrations leave a WAL of a few MB whose space later writes reuse after
    // a checkpoint: empty it, so the next writes need new pages.
    const db = new Database(path.join(dir, 'stake.db'))
    try {
      db.pragma('wal_checkpoint(TRUNCATE)')
    } finally {
      db.close()
    }
    fillDisk(filler)

    // A write needs new pages in the WAL, which the full disk refuses. (Bounded:
    // the WAL may still hold a little room, which a few writes use up.)
    const statuses: number[] = []
    let refused: Response | undefined
    for (let i = 0; i < 50 && !refused; i++) {
      const res = await createWard(server.base, token, `During ${i} ${'x'.repeat(80)}`)
      statuses.push(res.status)
      if (res.status !== 201) refused = res
      else await res.arrayBuffer()
    }
    assert.ok(refused, 'a write was refused')
    assert.equal(refused.status, 503, `statuses: ${statuses.join(',')}`)
    assert.equal(refused.headers.get('retry-after'), '5')
    const body = await refused.json()
    assert.equal(body.code, 'unavailable')
    assert.equal(typeof body.detail, 'string')

    const list = await request(`${server.base}/api/wards`, { headers: { authorization: `Bearer ${token}` } })
    assert.equal(list.status, 200, 'reads go on')
    assert.ok((await list.json()).some((w: { name: string }) => w.name === 'Before the disk filled'))
    const ready = await request(`${server.base}/api/ready`)
    assert.equal(ready.status, 503)
    assert.equal((await ready.json()).code, 'unavailable')

    fs.rmSync(filler)
    assert.equal((await request(`${server.base}/api/ready`)).status, 200)
    const recovered = await createWard(server.base, token, 'After space was freed')
    assert.equal(recovered.status, 201)
    const names = (
      await (await request(`${server.base}/api/wards`, { headers: { authorization: `Bearer ${token}` } })).json()
    ).map((w: { name: string }) => w.name)
    assert.ok(names.includes('After space was freed'))

    assert.equal(server.child.exitCode, null, 'still running')
    assert.match(server.output(), /SQLITE_FULL/, 'the log names the real error')
    assert.doesNotMatch(server.output(), /cannot rollback/)
  })

  it('still shuts down cleanly (exit 0)', async () => {
    server.child.kill('SIGTERM')
    assert.equal(await server.exited, 0)
  })
})
