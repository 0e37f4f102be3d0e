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

/** A worker that dies before it listens, or this soon after, counts toward giving up. */
const EARLY_EXIT_MS = 10_000
/** Workers that died early, in a row, before the primary stops (a port in use, a broken database). */
const EARLY_EXITS_ALLOWED = 5
/** The wait before replacing the first worker that died early; doubled for each next one in a row. */
const FIRST_BACKOFF_MS = 500

/**
 * How long the primary waits before replacing a worker, given how many died
 * early in a row (this one included): at once after one that had been
 * serving, then 0.5, 1, 2, 4 s, so a worker that cannot start is not
 * restarted in a tight loop while the cause lasts.
 */
export function restartDelayMs(earlyExits: number): number {
  return earlyExits === 0 ? 0 : FIRST_BACKOFF_MS * 2 ** (earlyExits - 1)
}

/**
 * The primary of `WORKERS` > 1: it has migrated the database and made the
 * first administrator (`prepare`), then starts the workers, which share the
 * port (node:cluster hands each connection to the next one). It prints the
 * start-up box once every worker listens, replaces a worker that dies (after
 * a growing wait when they die right after starting, and gives up after
 * EARLY_EXITS_ALLOWED in a row), and on SIGTERM or SIGINT passes SIGTERM on
 * and exits when every worker has drained (with the worst exit code among
 * them).
 */
export async function runPrimary(config: Config, started: () => void): Promise<void> {
  const log = primaryLog(config.logLevel)
  let stopping = false
  let exitCode = 0
  let earlyExits = 0
  let listening = 0
  /** When each worker began to listen (a worker absent here has not yet). */
  const listeningSince = new Map<number, number>()
  /** Replacements waiting out their backoff: cancelled by a stop. */
  const pending = new Set<NodeJS.Timeout>()

  const fork = () => cluster.fork()
  const running = () => Object.values(cluster.workers ?? {}).filter((w) => w !== undefined)

  const stop = (reason: string) => {
    if (stopping) return
    stopping = true
    for (const timer of pending) clearTimeout(timer)
    pending.clear()
    log.info({ reason, workers: running().length }, 'shutting down the workers')
    for (const worker of running()) worker.process.kill('SIGTERM')
    if (running().length === 0) process.exit(exitCode)
  }

  cluster.on('listening', (worker) => {
    listeningSince.set(worker.id, Date.now())
    listening++
    if (listening === config.workers) started()
  })
  cluster.on('exit', (worker, code, signal) => {
    // Measured from listen, not from fork: loading the app alone may take longer than EARLY_EXIT_MS on a busy machine.
    const served = Date.now() - (listeningSince.get(worker.id) ?? Date.now())
    listeningSince.delete(worker.id)
    if (stopping) {
      // A worker still starting has no handler yet: our SIGTERM ends it before it served anything.
      exitCode = Math.max(exitCode, code ?? (signal === 'SIGTERM' ? 0 : 1))
      if (running().length === 0) process.exit(exitCode)
      return
    }
    earlyExits = served < EARLY_EXIT_MS ? earlyExits + 1 : 0
    if (earlyExits >= EARLY_EXITS_ALLOWED) {
      log.error({ worker_pid: worker.process.pid, code, signal }, 'a worker stopped')
      log.error({ early_exits: earlyExits }, 'workers keep stopping right after they start: giving up')
      exitCode = 1
      stop('workers failing')
      return
    }
    const delay = restartDelayMs(earlyExits)
    log.error({ worker_pid: worker.process.pid, code, signal, restart_in_ms: delay }, 'a worker stopped')
    const timer = setTimeout(() => {
      pending.delete(timer)
      fork()
    }, delay)
    pending.add(timer)
  })

  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
  for (let i = 0; i < config.workers; i++) fork()
}
