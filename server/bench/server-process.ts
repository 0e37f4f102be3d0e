// The service as a separate process, started the way an operator starts it
// (`npm start`: the compiled server/dist/main.js under plain node, built
// first when its sources changed), with production argon2 settings
// and LOG_LEVEL=warn (at info it writes a line per request to the pipe,
// which would measure the pipe).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { COMPILED } from '../src/test/process.ts'
import { ADMIN_EMAIL } from './stake-data.ts'
import { DATA_DIR } from './stake-store.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** Compiles server/dist when its sources changed (what `npm start` does first). */
export function buildServer(): void {
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-if-changed.mjs'), 'server'], {
    cwd: ROOT,
    stdio: 'inherit',
  })
  if (built.status !== 0) throw new Error('could not compile the server')
}

export interface Server {
  baseUrl: string
  pid: number
  /** Milliseconds from spawn until /ready answered 200. */
  startMs: number
  stop(): Promise<void>
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

/** One GET on a fresh connection; the status, or 0 when nothing answers yet. */
function probeReady(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', () => resolve(0))
  })
}

export async function startServer(databaseUrl: string, env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  fs.mkdirSync(DATA_DIR, { recursive: true })
  const started = performance.now()
  const child: ChildProcess = spawn(process.execPath, [...COMPILED.serverArgs, COMPILED.main], {
    // Run from the cache directory so that no developer's .env is read.
    cwd: DATA_DIR,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      ADMIN_EMAIL,
      LOG_LEVEL: 'warn',
      JWT_SECRET: '',
      // One process unless asked: the figures are one server process's (bench/workers.ts compares 1 and 2).
      WORKERS: process.env.BENCH_WORKERS ?? '1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let output = ''
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)))
  let exited = false
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())))
  for (;;) {
    if (exited) throw new Error(`the server exited before it was ready:\n${output}`)
    if ((await probeReady(`${baseUrl}/ready`)) === 200) break
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  const startMs = performance.now() - started
  return {
    baseUrl,
    pid: child.pid!,
    startMs,
    async stop() {
      if (!exited) child.kill('SIGTERM')
      await exit
    },
  }
}

/** The process's peak and current resident set (Linux /proc), in MB; null elsewhere. */
export function memoryOf(pid: number): { peakMb: number; rssMb: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN)
    return { peakMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 }
  } catch {
    return null
  }
}

/** `pid` and its child processes (a cluster's primary, then its workers), from Linux's /proc; [pid] elsewhere. */
export function processTree(pid: number): number[] {
  const children: number[] = []
  try {
    for (const name of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue
      try {
        // pid (comm) state ppid …: comm may hold spaces, so read after its closing parenthesis.
        const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8')
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(name))
      } catch {
        // ended meanwhile
      }
    }
  } catch {
    return [pid]
  }
  return [pid, ...children.sort((a, b) => a - b)]
}
