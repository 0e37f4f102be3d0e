// npm run bench: loads the service and, in the same run, a bare node:http
// server on loopback with autocannon (bounded time and connections) and
// prints requests/s, p99 latency and the ratio to the bare server. Ratios,
// not absolute numbers, are what to compare: these machines are shared.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { Algorithm, hash, verify } from '@node-rs/argon2'
import { createDatabase } from '../src/db/database.ts'
import { PRODUCTION_ARGON2 } from '../src/config.ts'
import { SCENARIOS, type BenchEnv, type PreparedLoad, type Scenario } from './scenarios.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
const DURATION = Number(process.env.BENCH_SECONDS ?? 5)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 1)
/** Only the scenarios whose name matches (a regular expression), for working on one of them. */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null
const selected = (name: string) => !ONLY || ONLY.test(name)
const ADMIN_PASSWORD = 'bench-admin-initial-pass'
const NEW_PASSWORD = 'bench-admin-chosen-pass'

function startChild(script: string, env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  return new Promise((resolve, reject) => {
    let output = ''
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = output.match(ready)
      if (match) {
        child.stdout!.off('data', onData)
        child.stdout!.resume()
        child.stderr!.resume()
        resolve({ child, match })
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()))
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}:\n${output}`)))
  })
}

interface Result {
  rps: number
  p99: number
  errors: number
  non2xx: number
}

async function load(url: string, prepared: PreparedLoad | autocannon.Options['requests'], extra: Partial<autocannon.Options> = {}): Promise<Result> {
  const requests = Array.isArray(prepared) ? prepared : undefined
  const single = Array.isArray(prepared) ? undefined : prepared
  const options = {
    url,
    connections: CONNECTIONS,
    method: single?.method,
    headers: single?.headers,
    body: single?.body,
    requests,
    ...extra,
  }
  // A second of unmeasured load first, so both servers are measured warm (JIT).
  await autocannon({ ...options, duration: WARMUP })
  const result = await autocannon({ ...options, duration: DURATION })
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx }
}

async function argon2HashRate(seconds: number, parallel: number): Promise<number> {
  const stored = await hash(NEW_PASSWORD, { algorithm: Algorithm.Argon2id, ...PRODUCTION_ARGON2 })
  let done = 0
  const until = Date.now() + seconds * 1000
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (Date.now() < until) {
        await verify(stored, NEW_PASSWORD)
        done++
      }
    }),
  )
  return done / seconds
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-bench-'))
  const dbFile = path.join(dir, 'bench.db')
  const servicePort = 18000 + Math.floor(Math.random() * 1000)
  const service = await startChild(
    path.join(here, '../src/main.ts'),
    {
      PORT: String(servicePort),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${dbFile}`,
      INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ADMIN_EMAIL: 'bench@example.org',
      LOG_LEVEL: 'warn',
    },
    /Stake Administration Service: (http:\/\/\S+)/,
  )
  const bare = await startChild(path.join(here, 'bare.ts'), { PORT: '0' }, /BARE_LISTENING (\d+)/)
  const plain = await startChild(path.join(here, 'plain-fastify.ts'), { PORT: '0' }, /BARE_LISTENING (\d+)/)
  const baseUrl = `http://127.0.0.1:${servicePort}`
  const bareUrl = `http://127.0.0.1:${bare.match[1]}`

  const api: BenchEnv['api'] = async (method, urlPath, body) => {
    const res = await fetch(baseUrl + urlPath, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    let json: unknown = null
    try {
      json = JSON.parse(text)
    } catch {
      // not JSON: json stays null and the caller reads the text
    }
    return { status: res.status, json, text }
  }
  const formLogin = (password: string) =>
    fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'bench@example.org', password }).toString(),
    })

  let token = ''
  const first = await formLogin(ADMIN_PASSWORD)
  token = ((await first.json()) as { access_token: string }).access_token
  const me = (await api('GET', '/api/auth/me')).json
  await api('PATCH', `/api/users/${me.id}/password`, { old_password: ADMIN_PASSWORD, new_password: NEW_PASSWORD })
  token = ((await (await formLogin(NEW_PASSWORD)).json()) as { access_token: string }).access_token

  const { db, close } = createDatabase(`sqlite:${dbFile}`)
  const env: BenchEnv = { baseUrl, adminToken: token, adminId: me.id, db, api }
  const auth = { authorization: `Bearer ${token}` }

  // The refresh run rotates real sessions, as browsers would: every request
  // takes a session's current cookie from a pool and puts back the one its
  // response set. (autocannon clears a connection's context each time its
  // request list starts over, so a cookie cannot be carried there.) There are
  // more sessions than connections, so no cookie is ever in flight twice.
  const cookiePool: string[] = []
  for (let i = 0; i < CONNECTIONS * 2; i++) {
    const res = await formLogin(NEW_PASSWORD)
    cookiePool.push(res.headers.getSetCookie()[0]!.split(';')[0]!)
  }
  const refreshRequests: autocannon.Options['requests'] = [
    {
      method: 'GET',
      path: '/api/auth/refresh',
      setupRequest: (req: any, context: any) => {
        context.cookie = cookiePool.shift()
        return { ...req, headers: { ...req.headers, cookie: context.cookie } }
      },
      onResponse: (_status: number, _body: string, context: any, headers: any) => {
        const raw: string[] = [].concat(headers['set-cookie'] ?? [])
        const fresh = raw.find((c) => c.startsWith('refresh_token='))
        cookiePool.push(fresh ? fresh.split(';')[0]! : context.cookie)
      },
    } as any,
  ]

  const loginBody = new URLSearchParams({ username: 'bench@example.org', password: NEW_PASSWORD }).toString()
  const builtIn: (Scenario & { requests?: autocannon.Options['requests'] })[] = [
    { name: 'GET /api/health', target: 0, baseline: 'health', prepare: async () => ({ method: 'GET', path: '/api/health' }) },
    { name: 'GET /api/auth/me', target: 0.5, baseline: 'health', prepare: async () => ({ method: 'GET', path: '/api/auth/me', headers: auth }) },
    { name: 'GET /api/auth/refresh', target: 0.3, baseline: 'health', prepare: async () => ({ method: 'GET', path: '/api/auth/refresh' }), requests: refreshRequests },
  ]

  const rows: string[][] = []
  const row = (name: string, r: Result, b: Result | null, target: number) => {
    const ratio = b ? r.rps / b.rps : NaN
    rows.push([
      name,
      r.rps.toFixed(0),
      r.p99.toFixed(1),
      b ? b.rps.toFixed(0) : '-',
      b ? b.p99.toFixed(1) : '-',
      b ? `${ratio.toFixed(2)}x` : '-',
      target ? `>= ${target}x ${ratio >= target ? 'met' : 'NOT met'}` : '',
      r.errors + r.non2xx > 0 ? `${r.errors} errors, ${r.non2xx} non-2xx` : '',
    ])
  }

  if (selected('reference: plain Fastify')) {
    const r = await load(`http://127.0.0.1:${plain.match[1]}/health`, { method: 'GET', path: '/' } as PreparedLoad)
    const b = await load(`${bareUrl}/health`, { method: 'GET', path: '/' } as PreparedLoad)
    row('reference: plain Fastify, no plugins', r, b, 0)
  }
  if (selected('reference: plain Fastify + one SQLite read')) {
    // The least /auth/me must do, on the bare framework: the ceiling of this
    // stack for that route (see plain-fastify.ts).
    const plainUrl = `http://127.0.0.1:${plain.match[1]}`
    const meBytes = Buffer.from(await (await fetch(`${baseUrl}/api/auth/me`, { headers: auth })).arrayBuffer())
    await fetch(`${plainUrl}/__payload/me`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: meBytes })
    const r = await load(`${plainUrl}/me`, { method: 'GET', path: '/' } as PreparedLoad)
    const b = await load(`${bareUrl}/health`, { method: 'GET', path: '/' } as PreparedLoad)
    row("reference: plain Fastify + one SQLite read, /auth/me's bytes", r, b, 0)
  }
  for (const scenario of [...builtIn, ...SCENARIOS].filter((s) => selected(s.name))) {
    const prepared = await scenario.prepare(env)
    const url = baseUrl + prepared.path
    let bareUrlFor = `${bareUrl}/health`
    if (scenario.baseline === 'same-bytes') {
      const sample = await fetch(url, { method: prepared.method, headers: prepared.headers, body: prepared.body })
      const bytes = Buffer.from(await sample.arrayBuffer())
      const key = scenario.name.replace(/[^a-z0-9]+/gi, '_')
      await fetch(`${bareUrl}/__payload/${key}`, { method: 'PUT', body: bytes })
      bareUrlFor = `${bareUrl}/${key}`
    }
    const requests = 'requests' in scenario ? scenario.requests : undefined
    const r = await load(baseUrl, requests ?? { ...prepared, path: undefined } as any, requests ? {} : { url } as any)
    const b = await load(bareUrlFor, { method: 'GET', path: '/' } as PreparedLoad)
    row(scenario.name, r, b, scenario.target)
    process.stdout.write(`.`)
  }

  // Login is bounded by argon2id by design: compare with the hash rate alone.
  if (selected('POST /api/auth/login')) await measureLogin()
  async function measureLogin() {
    const rate = await argon2HashRate(DURATION, 4)
    const loginResult = await load(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      path: '/api/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: loginBody,
    })
    rows.push(['argon2id verify alone (m=19456,t=2,p=1)', rate.toFixed(1), '-', '-', '-', '-', '', ''])
    rows.push([
      'POST /api/auth/login',
      loginResult.rps.toFixed(1),
      loginResult.p99.toFixed(1),
      '-',
      '-',
      `${((loginResult.rps / rate) * 100).toFixed(0)}% of hash rate`,
      `>= 80% ${loginResult.rps / rate >= 0.8 ? 'met' : 'NOT met'}`,
      loginResult.errors + loginResult.non2xx > 0 ? `${loginResult.errors} errors, ${loginResult.non2xx} non-2xx` : '',
    ])
  }

  const header = ['scenario', 'req/s', 'p99 ms', 'bare req/s', 'bare p99', 'ratio', 'target', 'notes']
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ')
  console.log(`\n\nautocannon: ${CONNECTIONS} connections, ${DURATION} s per run, loopback; ${os.cpus().length} CPUs\n`)
  console.log(line(header))
  for (const r of rows) console.log(line(r))

  await close()
  service.child.kill('SIGTERM')
  bare.child.kill('SIGTERM')
  plain.child.kill('SIGTERM')
  fs.rmSync(dir, { recursive: true, force: true })
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
