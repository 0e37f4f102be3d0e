import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.ts'
import type { Config } from '../config.ts'
import type { Dialect } from '../db/database.ts'
import type { DB } from '../db/schema.ts'

export type JobLog = Pick<FastifyBaseLogger, 'info' | 'error'>

export interface JobDeps {
  db: Kysely<DB>
  dialect: Dialect
  clock: Clock
  config: Config
  log: JobLog
}

/**
 * One periodic job: `run` is one round (it logs what it did), `every` the
 * pause in ms between the end of one round and the next, `close` what to
 * release after the last round. Work shared by instances is claimed in the
 * database inside `run`, never by the timer alone (ARCHITECTURE.md).
 */
export interface Job {
  name: string
  every: number
  run(): Promise<unknown>
  close?(): Promise<void>
}

/**
 * A job on a timer: the first round at start, each next one `every` ms
 * after the last ended (rounds never overlap); a failed round is logged and
 * the next one tries again. stop() lets a round in progress finish. Only
 * main.ts starts these, after listen; buildApp never does, so tests get no
 * timers and run one round by hand.
 */
export function scheduled(job: Job, log: JobLog) {
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  let running: Promise<void> = Promise.resolve()
  const tick = () => {
    running = Promise.resolve()
      .then(() => job.run())
      .then(
        () => undefined,
        (error: unknown) => log.error({ err: error }, `${job.name} failed`),
      )
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, job.every).unref() // never what keeps the process alive
      })
  }
  return {
    start() {
      stopped = false
      tick()
    },
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
      await job.close?.()
    },
  }
}
