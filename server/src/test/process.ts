import { spawn, type ChildProcess } from 'node:child_process'
import net from 'node:net'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../main.ts')
/** V8's memory settings of every start of the compiled server (NODE_OPTIONS, read with `node --env-file`). */
export const NODE_MEMORY_ENV = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../node-memory.env')
const PLAIN_NODE = ['--no-experimental-strip-types', '--conditions=stake-compiled']
/**
 * The compiled code as `npm start` and `npm run cli` run it: plain node,
 * TypeScript refused outright; the server with V8's memory settings too.
 */
export const COMPILED = {
  args: PLAIN_NODE,
  serverArgs: [`--env-file=${NODE_MEMORY_ENV}`, ...PLAIN_NODE],
  main: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/main.js'),
  cli: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli.js'),
}

/** A port free a moment ago (the kernel picks it). */
export async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

export interface ServerProcess {
  base: string
  child: ChildProcess
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>
  output(): string
  /** SIGKILL if still running: for cleanup after a failed assertion. */
  kill(): Promise<void>
}

/**
 * Runs the service (main.ts under tsx, or with `compiled` the build in
 * server/dist exactly as `npm start` runs it) without waiting for it.
 */
export async function spawnServer(
  env: Record<string, string>,
  options: { compiled?: boolean } = {},
): Promise<ServerProcess> {
  const port = await freePort()
  const args = options.compiled ? [...COMPILED.serverArgs, COMPILED.main] : ['--import', 'tsx', main]
  const child = spawn(process.execPath, args, {
    // One process unless a test asks for a cluster: exit codes and outputs are the process's own.
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), WORKERS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return {
    base: `http://127.0.0.1:${env.PORT ?? port}`,
    child,
    exited,
    output: () => output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
}

/** spawnServer, then waits until the service listens (at most `waitMs`, 60 s unless told). */
export async function startServer(
  env: Record<string, string>,
  options: { compiled?: boolean; waitMs?: number } = {},
): Promise<ServerProcess> {
  const server = await spawnServer(env, options)
  const { child } = server
  const started = await waitFor(
    () => server.output().includes('Stake Administration Service is running at http') || child.exitCode !== null,
    options.waitMs ?? 60_000,
  )
  if (!started || child.exitCode !== null) {
    await server.kill()
    throw new Error(`the server did not start: ${server.output()}`)
  }
  return server
}

/** Polls `check` every 50 ms until it holds; false after `ms`. */
export async function waitFor(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return true
    await sleep(50)
  }
  return false
}

/** fetch with a bound: a hung request fails the test instead of stalling it. */
export function request(url: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<Response> {
  return fetch(url, { ...init, signal: AbortSignal.timeout(init.timeoutMs ?? 20_000) })
}

export const ADMIN_PASSWORD = 'first-admin-passphrase'
export const CHOSEN_PASSWORD = 'chosen-admin-passphrase'

async function login(base: string, password: string): Promise<Response> {
  return request(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: 'admin@example.com', password }).toString(),
  })
}

/**
 * A token of the bootstrap administrator (started with INITIAL_ADMIN_PASSWORD
 * = ADMIN_PASSWORD), its forced password change done.
 */
export async function adminToken(base: string): Promise<string> {
  const first = await login(base, ADMIN_PASSWORD)
  if (first.status !== 200) throw new Error(`login: ${first.status} ${await first.text()}`)
  const token = (await first.json()).access_token as string
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const me = await (await request(`${base}/api/auth/me`, { headers: auth })).json()
  if (!me.force_password_reset) return token
  const changed = await request(`${base}/api/users/${me.id}/password`, {
    method: 'PATCH',
    headers: auth,
    body: JSON.stringify({ old_password: ADMIN_PASSWORD, new_password: CHOSEN_PASSWORD }),
  })
  if (changed.status >= 300) throw new Error(`password change: ${changed.status} ${await changed.text()}`)
  const second = await login(base, CHOSEN_PASSWORD)
  return (await second.json()).access_token as string
}

/** Creates a ward (a write in one transaction); the response as it came. */
export function createWard(base: string, token: string, name: string, timeoutMs?: number): Promise<Response> {
  return request(`${base}/api/wards`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, start_time: 540 }),
    timeoutMs,
  })
}
