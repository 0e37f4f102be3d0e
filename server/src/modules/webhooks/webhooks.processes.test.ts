import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { dialect } from '../../test/harness.ts'
import { ADMIN_PASSWORD, adminToken, request, startServer, waitFor, type ServerProcess } from '../../test/process.ts'
import { startReceiver, verifies } from '../../test/webhooks.fixtures.ts'

/** A fresh database both processes share: a SQLite file, or a PostgreSQL database from the run's template. */
async function sharedDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-webhooks-'))
    return { url: `sqlite:${path.join(dir, 'stake.db')}`, drop: async () => fs.rmSync(dir, { recursive: true }) }
  }
  const adminUrl = process.env.TEST_PG_URL!
  const name = `${process.env.TEST_PG_TEMPLATE}_f_${crypto.randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${process.env.TEST_PG_TEMPLATE}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl })
      await client.connect()
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await client.end()
    },
  }
}

/**
 * Two server processes on one database, each with its own webhook worker
 * started by main.ts: every event reaches the receiver exactly once.
 */
describe('webhooks: two server processes, one outbox', () => {
  let database: Awaited<ReturnType<typeof sharedDatabase>>
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  const servers: ServerProcess[] = []

  before(async () => {
    database = await sharedDatabase()
    receiver = await startReceiver()
    const env = { DATABASE_URL: database.url, INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD, WEBHOOK_ALLOW_PRIVATE: 'true' }
    servers.push(await startServer(env)) // the first migrates and creates the administrator
    servers.push(await startServer(env))
  })
  after(async () => {
    for (const server of servers) await server.kill()
    await receiver?.close()
    await database?.drop()
  })

  it('delivers each of 30 events once, whichever process made the change (count at the receiver)', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess]
    const token = await adminToken(a.base)
    const call = async (base: string, method: string, url: string, body?: unknown) => {
      const res = await request(`${base}/api${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await res.text()
      assert.ok(res.status < 300, `${method} ${url}: ${res.status} ${text}`)
      return text ? JSON.parse(text) : null
    }
    const hook = await call(a.base, 'POST', '/webhooks', { url: receiver.url('/two'), events: ['comment'] })
    const ward = await call(a.base, 'POST', '/wards', { name: 'Two Processes Ward', start_time: 540 })
    const proposal = await call(b.base, 'POST', '/calling-kanban/proposals', {
      fname: 'Ana',
      lname: 'Two',
      proposed_calling: 'Librarian',
      ward_id: ward.id,
    })
    for (let i = 0; i < 30; i++) {
      await call(i % 2 ? a.base : b.base, 'POST', `/calling-kanban/proposals/${proposal.id}/comments`, {
        comment_text: `note ${i}`,
      })
    }

    const log = () => call(a.base, 'GET', `/webhooks/${hook.id}/deliveries?limit=100`)
    const allDelivered = async () => {
      const rows = (await log()) as { status: string }[]
      return rows.length === 30 && rows.every((d) => d.status === 'delivered')
    }
    assert.ok(await waitFor(allDelivered, 60_000), 'both workers together deliver all 30')
    const got = receiver.at('/two')
    assert.equal(got.length, 30)
    assert.equal(new Set(got.map((r) => r.headers['x-stake-delivery'])).size, 30)
    assert.ok(got.every((r) => verifies(hook.secret, r)))
    // One claim per attempt: a delivery taken twice would show two attempts.
    assert.ok(((await log()) as { attempts: number }[]).every((d) => d.attempts === 1))
  })
})
