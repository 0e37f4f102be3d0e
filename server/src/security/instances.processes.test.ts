import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { dialect } from '../test/harness.ts'
import {
  ADMIN_PASSWORD,
  CHOSEN_PASSWORD,
  adminToken,
  request,
  startServer,
  waitFor,
  type ServerProcess,
} from '../test/process.ts'
import { SmtpReceiver } from '../test/smtp-receiver.ts'

const INSTANCES = 3

/**
 * A round-robin proxy without sticky sessions: every request goes to the next
 * instance, so any state a request relies on must live in the database.
 */
async function roundRobin(targets: string[]) {
  let next = 0
  const server = http.createServer((incoming, outgoing) => {
    const target = new URL(incoming.url ?? '/', targets[next++ % targets.length])
    const forwarded = http.request(target, { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(outgoing)
    })
    forwarded.on('error', () => outgoing.writeHead(502).end())
    incoming.pipe(forwarded)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

const cookieOf = (res: Response): string | undefined => {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('refresh_token='))
  return cookie?.split(';')[0]?.slice('refresh_token='.length)
}

describe(
  'three instances on one PostgreSQL behind a round-robin proxy agree on everything kept in the database',
  { skip: dialect !== 'postgres' && 'PostgreSQL pass only' },
  () => {
    const adminUrl = process.env.TEST_PG_URL!
    const name = `${process.env.TEST_PG_TEMPLATE}_f_${crypto.randomBytes(6).toString('hex')}`
    const servers: ServerProcess[] = []
    let proxy: Awaited<ReturnType<typeof roundRobin>>
    let receiver: SmtpReceiver
    let token: string

    const admin = async (statement: string) => {
      const client = new pg.Client({ connectionString: adminUrl })
      await client.connect()
      await client.query(statement).finally(() => client.end())
    }

    before(async () => {
      await admin(`CREATE DATABASE ${name} TEMPLATE ${process.env.TEST_PG_TEMPLATE}`)
      receiver = await SmtpReceiver.start()
      const url = new URL(adminUrl)
      url.pathname = `/${name}`
      // The servers serve as the restricted role, as in production (S17).
      if (process.env.TEST_PG_APP_ROLE) {
        url.username = process.env.TEST_PG_APP_ROLE
        url.password = ''
      }
      const env = {
        DATABASE_URL: url.toString(),
        SMTP_URL: receiver.url(),
        INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
        SHUTDOWN_DRAIN_MS: '100',
        // The day's jobs are due at once on every instance: only one may run them.
        DAILY_HOUR: '0',
        BACKUP_DIR: `/tmp/${name}-backups`,
        LOG_LEVEL: 'info',
      }
      // One starts first (it creates the bootstrap administrator), then the others.
      servers.push(await startServer(env))
      servers.push(...(await Promise.all(Array.from({ length: INSTANCES - 1 }, () => startServer(env)))))
      proxy = await roundRobin(servers.map((s) => s.base))
      token = await adminToken(proxy.base)
    })

    after(async () => {
      await proxy?.close()
      for (const server of servers) await server.kill()
      await receiver?.close()
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    })

    const json = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
      request(`${proxy.base}/api${path}`, {
        method: init.method ?? 'GET',
        headers: {
          authorization: `Bearer ${token}`,
          ...(init.body ? { 'content-type': 'application/json' } : {}),
          ...init.headers,
        },
        body: init.body ? JSON.stringify(init.body) : undefined,
      })

    const login = (username: string, password: string) =>
      request(`${proxy.base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username, password }).toString(),
      })

    it('sign-in throttling counts attempts made at every instance: the sixth wrong password is 429', async () => {
      const email = `throttled-${crypto.randomBytes(4).toString('hex')}@example.org`
      const created = await json('/users', { method: 'POST', body: { email, fname: 'Tess', lname: 'Throttle' } })
      assert.equal(created.status, 201, await created.text())
      const statuses: number[] = []
      for (let i = 0; i < 6; i++) statuses.push((await login(email, `wrong-password-${i}`)).status)
      // Five failures spread over three instances, then the lock, whichever instance answers.
      assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429])
    })

    it('an anonymous write limit (S21) is counted in the database: the 21st reset request is 429 wherever it lands', async () => {
      const ask = (i: number) =>
        request(`${proxy.base}/api/auth/password-reset`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: `nobody-${i}@example.org` }),
        })
      const statuses: number[] = []
      for (let i = 0; i < 21; i++) statuses.push((await ask(i)).status)
      // Twenty spread over three instances, then the limit holds at every one of them.
      assert.deepEqual(statuses, [...Array(20).fill(202), 429])
      const again = await ask(99)
      assert.equal(again.status, 429)
      assert.ok(Number(again.headers.get('retry-after')) > 0)
    })

    it('S20: booking links made by one user are limited across the instances: the 51st offer is 429', async () => {
      // The administrator publishes interview times and sends the links.
      const weekly = [{ weekday: 2, start_minute: 18 * 60, end_minute: 20 * 60 }]
      const published = await json('/appointments/availability', { method: 'PUT', body: { weekly, exceptions: [] } })
      assert.equal(published.status, 200, await published.text())
      const me = (await (await json('/auth/me')).json()) as { id: number }
      const body = { kind: 'other', name: 'Mary Member', interviewer_id: me.id, duration_minutes: 30 }
      const offer = () => json('/appointments/offers', { method: 'POST', body })
      const statuses: number[] = []
      for (let i = 0; i < 51; i++) {
        const res = await offer()
        statuses.push(res.status)
        if (i === 0) assert.equal(res.status, 201, await res.text())
      }
      assert.deepEqual(statuses, [...Array(50).fill(201), 429])
    })

    it('refresh rotates at one instance and detects reuse at another', async () => {
      const first = await login('admin@example.com', CHOSEN_PASSWORD)
      assert.equal(first.status, 200)
      const c0 = cookieOf(first)!
      const refresh = (cookie: string) =>
        request(`${proxy.base}/api/auth/refresh`, { headers: { cookie: `refresh_token=${cookie}` } })
      const r1 = await refresh(c0)
      assert.equal(r1.status, 200)
      const c1 = cookieOf(r1)!
      assert.notEqual(c1, c0)
      const r2 = await refresh(c1)
      assert.equal(r2.status, 200)
      const c2 = cookieOf(r2)!
      // c0 is older than the one just rotated out: presenting it ends the session everywhere.
      assert.equal((await refresh(c0)).status, 401)
      assert.equal((await refresh(c2)).status, 401)
    })

    it('the board has one ETag at every instance, and each answers 304 to another one’s', async () => {
      const ward = await json('/wards', { method: 'POST', body: { name: 'Instance Ward', start_time: 540 } })
      assert.equal(ward.status, 201, await ward.text())
      const tags = await Promise.all(
        servers.map(async (s) => {
          const res = await request(`${s.base}/api/calling-kanban/board/compact`, {
            headers: { authorization: `Bearer ${token}` },
          })
          assert.equal(res.status, 200)
          return res.headers.get('etag')
        }),
      )
      assert.ok(tags[0])
      assert.deepEqual(new Set(tags).size, 1, `ETags differ: ${tags.join(', ')}`)
      for (const s of servers) {
        const res = await request(`${s.base}/api/calling-kanban/board/compact`, {
          headers: { authorization: `Bearer ${token}`, 'if-none-match': tags[0]! },
        })
        assert.equal(res.status, 304)
      }
    })

    it('an invitation queued at one instance is mailed once, though three outbox workers poll', async () => {
      const email = `invited-${crypto.randomBytes(4).toString('hex')}@example.org`
      const created = await json('/users', {
        method: 'POST',
        body: { email, fname: 'Ines', lname: 'Invited', invite: true },
      })
      assert.equal(created.status, 201, await created.text())
      const delivered = () => receiver.mail.filter((m) => m.to.includes(email)).length
      assert.ok(await waitFor(() => delivered() > 0, 30_000), 'the invitation never arrived')
      // Three more polling rounds of every worker: still one.
      await new Promise((resolve) => setTimeout(resolve, 3_000))
      assert.equal(delivered(), 1)
    })

    it('the day’s jobs of a stake run at one instance only', async () => {
      const ran = () =>
        servers.map(
          (s) =>
            s
              .output()
              .split('\n')
              .filter((line) => line.includes('"msg":"daily jobs done"')).length,
        )
      assert.ok(await waitFor(() => ran().reduce((a, b) => a + b, 0) > 0, 30_000), 'the daily jobs never ran')
      await new Promise((resolve) => setTimeout(resolve, 2_000))
      assert.equal(
        ran().reduce((a, b) => a + b, 0),
        1,
        `runs per instance: ${ran().join(', ')}`,
      )
    })

    // Last: past its budget the stake creates no one with a new email for the rest of the hour.
    it('S19: another stake’s emails are told 20 times an hour per stake across the instances, then withheld (429)', async () => {
      // Another stake and 21 of its people, written as the operator's tools would.
      const tag = crypto.randomBytes(4).toString('hex')
      const url = new URL(adminUrl)
      url.pathname = `/${name}`
      const client = new pg.Client({ connectionString: url.toString() })
      await client.connect()
      try {
        await client.query(`SELECT set_config('app.stake_id', 'all', false)`)
        const stake = await client.query<{ id: number }>(
          `INSERT INTO stakes (name, slug, timezone, language, sp_approvals_required, hc_approvals_required,
                               high_council_seats, settings_from_env, created_at, updated_at)
           SELECT $1, $2, timezone, language, sp_approvals_required, hc_approvals_required,
                  high_council_seats, false, created_at, updated_at
           FROM stakes ORDER BY id LIMIT 1 RETURNING id`,
          [`Elsewhere ${tag}`, `elsewhere-${tag}`],
        )
        await client.query(
          `INSERT INTO users (stake_id, email, email_key, fname, lname, active, force_password_reset, created_at, updated_at)
           SELECT $1, 'else-' || $2 || '-' || i || '@example.org', 'else-' || $2 || '-' || i || '@example.org',
                  'Else', 'Where', true, false, now()::text, now()::text
           FROM generate_series(1, 21) AS i`,
          [stake.rows[0]!.id, tag],
        )
      } finally {
        await client.end()
      }
      const create = (i: number) =>
        json('/users', {
          method: 'POST',
          body: { email: `else-${tag}-${i}@example.org`, fname: 'Probe', lname: 'Probe' },
        })
      const codes: string[] = []
      for (let i = 1; i <= 21; i++) {
        const res = await create(i)
        codes.push(`${res.status} ${((await res.json()) as { code?: string }).code}`)
      }
      assert.deepEqual(codes, [...Array(20).fill('409 duplicate_email'), '429 too_many_attempts'])
    })
  },
)
