import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { dialect } from '../../test/harness.ts'
import { PrivateCluster } from '../../test/pg-cluster.ts'
import {
  ADMIN_PASSWORD,
  adminToken,
  createWard,
  request,
  startServer,
  waitFor,
  type ServerProcess,
} from '../../test/process.ts'
import { StallProxy } from '../../test/stall-proxy.ts'

// Short timeouts, so each fault shows within a second or two.
const TIMEOUTS = { DB_CONNECT_TIMEOUT_MS: '1000', DB_STATEMENT_TIMEOUT_MS: '1000', SHUTDOWN_DRAIN_MS: '100' }

const pgOnly = dialect !== 'postgres' && 'PostgreSQL pass only'
const clusterSkip = pgOnly || PrivateCluster.available()?.skip

describe('PostgreSQL restarted and stopped under concurrent writers (a private cluster)', { skip: clusterSkip }, () => {
  let cluster: PrivateCluster | undefined
  let server: ServerProcess | undefined
  let token: string

  before(async () => {
    cluster = await PrivateCluster.create()
    server = await startServer({ DATABASE_URL: cluster.url, INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD, ...TIMEOUTS })
    token = await adminToken(server.base)
  })

  after(async () => {
    await server?.kill()
    await cluster?.destroy()
  })

  it('survives, answers 503 unavailable during the outage, recovers by itself, and loses no acknowledged write', async () => {
    const base = server!.base
    const acknowledged: string[] = []
    const unexpected: string[] = []
    let refused = 0
    let stop = false
    const writer = async (w: number) => {
      for (let n = 0; !stop; n++) {
        const name = `w${w}-${n}`
        try {
          const res = await createWard(base, token, name, 15_000)
          const body = await res.json()
          if (res.status === 201) acknowledged.push(name)
          else if (res.status === 503 && body.code === 'unavailable' && res.headers.get('retry-after')) refused++
          else unexpected.push(`${res.status} ${JSON.stringify(body)}`)
          if (res.status !== 201) await sleep(50)
        } catch (error) {
          unexpected.push(String(error))
          await sleep(50)
        }
      }
    }
    const writers = Array.from({ length: 16 }, (_, w) => writer(w))
    const progress = async (what: string) => {
      const from = acknowledged.length
      const moved = await waitFor(() => acknowledged.length >= from + 30 || server!.child.exitCode !== null, 20_000)
      assert.equal(server!.child.exitCode, null, `the service died: ${server!.output().slice(-2000)}`)
      assert.ok(moved, what)
    }
    try {
      await progress('writes are acknowledged')
      // A restart ends every session, checked-out clients included, with 57P01.
      await cluster!.restart()
      await progress('writes go on after a restart')

      await cluster!.stop()
      const before = refused
      assert.ok(await waitFor(() => refused > before, 10_000), 'writes are answered 503 while the database is down')
      const ready = await request(`${base}/api/ready`)
      assert.equal(ready.status, 503)
      assert.equal((await ready.json()).code, 'unavailable')
      await cluster!.start()
      await progress('writes are acknowledged again, without restarting the service')
    } finally {
      stop = true
      await Promise.all(writers)
    }

    assert.equal(server!.child.exitCode, null, `the service is still running: ${server!.output().slice(-2000)}`)
    assert.deepEqual(unexpected, [], 'only 201 and 503 unavailable, never 500 or a dropped connection')
    assert.equal((await request(`${base}/api/ready`)).status, 200)
    const client = new pg.Client({ connectionString: cluster!.url })
    await client.connect()
    try {
      const stored = new Set((await client.query<{ name: string }>('select name from wards')).rows.map((r) => r.name))
      assert.deepEqual(
        acknowledged.filter((name) => !stored.has(name)),
        [],
        `every acknowledged write is stored (${acknowledged.length} acknowledged, ${refused} refused)`,
      )
    } finally {
      await client.end()
    }
  })
})

describe('a database that goes silent (a stalling TCP proxy)', { skip: pgOnly }, () => {
  const adminUrl = process.env.TEST_PG_URL ?? ''
  const name = `${process.env.TEST_PG_TEMPLATE}_stall_${crypto.randomBytes(4).toString('hex')}`
  let proxy: StallProxy | undefined
  let server: ServerProcess | undefined
  let token: string

  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl })
    await client.connect()
    await client.query(statement).finally(() => client.end())
  }

  before(async () => {
    await admin(`CREATE DATABASE ${name} TEMPLATE ${process.env.TEST_PG_TEMPLATE}`)
    const target = new URL(adminUrl)
    proxy = await StallProxy.start({ host: target.hostname, port: Number(target.port || 5432) })
    const url = new URL(adminUrl)
    url.host = `127.0.0.1:${proxy.port}`
    url.pathname = `/${name}`
    server = await startServer({ DATABASE_URL: url.toString(), INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD, ...TIMEOUTS })
    token = await adminToken(server.base)
  })

  after(async () => {
    await server?.kill()
    await proxy?.close()
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  })

  it('answers reads, writes and /ready 503 within the timeouts instead of hanging, and recovers when it speaks again', async () => {
    const base = server!.base
    const auth = { authorization: `Bearer ${token}` }
    assert.equal((await createWard(base, token, 'Before the stall')).status, 201)

    proxy!.stall()
    const started = Date.now()
    const answers = await Promise.all([
      request(`${base}/api/ready`),
      request(`${base}/api/wards`, { headers: auth }),
      createWard(base, token, 'During the stall'),
    ])
    const elapsed = Date.now() - started
    for (const res of answers) {
      assert.equal(res.status, 503, res.url)
      assert.equal((await res.json()).code, 'unavailable')
    }
    // Connect 1 s, statement 1 s (+1 s on the client): far below the stall.
    assert.ok(elapsed < 10_000, `answered after ${elapsed} ms`)

    proxy!.resume()
    assert.ok(await waitFor(async () => (await request(`${base}/api/ready`)).status === 200, 15_000), 'ready again')
    assert.equal((await createWard(base, token, 'After the stall')).status, 201)
    const names = (await (await request(`${base}/api/wards`, { headers: auth })).json()).map(
      (w: { name: string }) => w.name,
    )
    assert.ok(names.includes('Before the stall') && names.includes('After the stall'))
    assert.equal(server!.child.exitCode, null)
  })
})
