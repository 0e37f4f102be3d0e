import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { dialect } from '../../test/harness.ts'
import { ADMIN_PASSWORD, startServer, waitFor, type ServerProcess } from '../../test/process.ts'

interface Answer {
  status: number
  connection: string | undefined
  body: string
}

/** One request on `agent` (keep-alive) or a fresh connection; fails instead of hanging. */
function send(
  base: string,
  method: string,
  url: string,
  options: { agent?: http.Agent; body?: string; type?: string } = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(`${base}${url}`, {
      method,
      agent: options.agent ?? false,
      timeout: 15_000,
      headers: options.type ? { 'content-type': options.type } : {},
    })
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} hung`)))
    req.on('error', reject)
    req.on('response', (res) => {
      let body = ''
      res.on('data', (chunk) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }))
    })
    req.end(options.body)
  })
}

// Process-level behaviour, the same on both databases: run once.
describe(
  'SIGTERM with keep-alive clients (a real process)',
  { skip: dialect !== 'sqlite' && 'runs in the SQLite pass only' },
  () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-term-'))
    let server: ServerProcess | undefined
    after(async () => {
      await server?.kill()
      fs.rmSync(dir, { recursive: true, force: true })
    })

    it('answers in-flight and draining requests, closes idle sockets, and exits 0 before the deadline', async () => {
      server = await startServer({
        DATABASE_URL: `sqlite:${path.join(dir, 'stake.db')}`,
        INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
        LOG_LEVEL: 'info',
        SHUTDOWN_DRAIN_MS: '1500',
        SHUTDOWN_TIMEOUT_MS: '8000',
      })
      const { base } = server
      const agent = new http.Agent({ keepAlive: true, maxSockets: 12 })
      try {
        // Twelve sockets kept open by the client, idle when the signal comes.
        const warm = await Promise.all(Array.from({ length: 12 }, () => send(base, 'GET', '/api/health', { agent })))
        assert.ok(warm.every((a) => a.status === 200 && a.connection === 'keep-alive'))

        // Sign-ins (an argon2 hash each) in flight when the signal comes.
        const form = new URLSearchParams({ username: 'admin@example.com', password: ADMIN_PASSWORD }).toString()
        const inFlight = Array.from({ length: 6 }, () =>
          send(base, 'POST', '/api/auth/login', { agent, body: form, type: 'application/x-www-form-urlencoded' }),
        )
        server.child.kill('SIGTERM')
        assert.ok(await waitFor(() => server!.output().includes('shutting down'), 5000), 'the signal was taken')

        // Draining: not ready any more, but a request on its way is still served.
        const ready = await send(base, 'GET', '/api/ready')
        assert.equal(ready.status, 503)
        assert.equal(JSON.parse(ready.body).code, 'unavailable')
        const late = await send(base, 'GET', '/api/health')
        assert.equal(late.status, 200)
        assert.equal(late.connection, 'close')

        const answers = await Promise.all(inFlight)
        assert.deepEqual(
          answers.map((a) => a.status),
          answers.map(() => 200),
          'every in-flight sign-in answered',
        )
        assert.equal(await server.exited, 0, 'exit 0 although the client still holds its keep-alive sockets')
        assert.doesNotMatch(server.output(), /shutdown deadline reached/)
      } finally {
        agent.destroy()
      }
    })
  },
)
