import cluster from 'node:cluster'
import os from 'node:os'
import type { Config } from './config.ts'

/** Pino's level numbers: the primary's few lines read like the workers' log. */
const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity }

type Level = 'info' | 'warn' | 'error'

/** The primary writes a handful of lines; loading a logger library for them would cost more than the lines. */
export function primaryLog(level: Config['logLevel']) {
  const write = (at: Level) => (first: object | string, msg?: string) => {
    if (LEVELS[at] < LEVELS[level]) return
    const fields = typeof first === 'string' ? { msg: first } : { ...first, msg }
    const line = { level: LEVELS[at], time: Date.now(), pid: process.pid, hostname: os.hostname(), ...fields }
    process.stdout.write(`${JSON.stringify(line)}\n`)
  }
  return { info: write('info'), warn: write('warn'), error: write('error') }
}

/** A worker that dies this soon after it started counts toward giving up. */
const EARLY_EXIT_MS = 10_000
/** Workers that died early, in a row, before the primary stops (a port in use, a broken database). */
const EARLY_EXITS_ALLOWED = 5

/**
 * The primary of `WORKERS` > 1: it has migrated the database and made the
 * first administrator (`prepare`), then starts the workers, which share the
 * port (node:cluster hands each connection to the next one). It prints the
 * start-up box once every worker listens, replaces a worker that dies, and
 * on SIGTERM or SIGINT passes SIGTERM on and exits when every worker has
 * drained (with the worst exit code among them).
 */
export async function runPrimary(config: Config, started: () => void): Promise<void> {
  const log = primaryLog(config.logLevel)
  let stopping = false
  let exitCode = 0
  let earlyExits = 0
  let listening = 0
  const startedAt = new Map<number, number>()

  const fork = () => {
    const worker = cluster.fork()
    startedAt.set(worker.id, Date.now())
  }
  const running = () => Object.values(cluster.workers ?? {}).filter((w) => w !== undefined)

  const stop = (reason: string) => {
    if (stopping) return
    stopping = true
    log.info({ reason, workers: running().length }, 'shutting down the workers')
    for (const worker of running()) worker.process.kill('SIGTERM')
    if (running().length === 0) process.exit(exitCode)
  }

  cluster.on('listening', () => {
    listening++
    if (listening === config.workers) started()
  })
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      // A worker still starting has no handler yet: our SIGTERM ends it before it served anything.
      exitCode = Math.max(exitCode, code ?? (signal === 'SIGTERM' ? 0 : 1))
      if (running().length === 0) process.exit(exitCode)
      return
    }
    const early = Date.now() - (startedAt.get(worker.id) ?? 0) < EARLY_EXIT_MS
    earlyExits = early ? earlyExits + 1 : 0
    log.error({ worker_pid: worker.process.pid, code, signal }, 'a worker stopped')
    if (earlyExits >= EARLY_EXITS_ALLOWED) {
      log.error({ early_exits: earlyExits }, 'workers keep stopping right after they start: giving up')
      exitCode = 1
      stop('workers failing')
      return
    }
    fork()
  })

  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
  for (let i = 0; i < config.workers; i++) fork()
}
