import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyInstance } from 'fastify'
import type { Config } from './config.ts'
import type { Database } from './db/database.ts'
import { isDatabaseUnavailable } from './db/unavailable.ts'

/**
 * Graceful shutdown, and the only way the process ends once it serves
 * (README "Operations"):
 * 1. SIGTERM or SIGINT: /ready answers 503 at once, and every answer
 *    carries `Connection: close`;
 * 2. for `shutdownDrainMs` the listener still accepts, so requests already on
 *    their way (sent before a load balancer saw /ready fail) are served;
 * 3. idle keep-alive connections are closed, the listener closes, in-flight
 *    requests finish, the database closes, exit 0. At `shutdownTimeoutMs` the process ends regardless: exit 0 if
 *    every request had finished (only the database close was slow), else 1.
 *
 * An uncaught exception leaves the process in an unknown state: it is logged
 * and leaves through the same path with exit 1. A database error is not such
 * a state (the pool has replaced the connection), nor is an unhandled
 * rejection (a promise nobody waited for): both are logged, and serving goes on.
 */
export function installShutdown(app: FastifyInstance, database: Database, timeouts: Config['timeouts']): void {
  let requestsFinished = false
  let exitCode = 0

  const shutdown = async (reason: string) => {
    if (app.lifecycle.draining) return
    app.lifecycle.draining = true
    app.log.info({ reason, drain_ms: timeouts.shutdownDrainMs }, 'shutting down: draining')
    setTimeout(() => {
      app.log.error({ requests_finished: requestsFinished }, 'shutdown deadline reached')
      process.exit(requestsFinished ? exitCode : 1)
    }, timeouts.shutdownTimeoutMs).unref()

    await sleep(timeouts.shutdownDrainMs)
    app.lifecycle.closing = true
    // Not before: a request may be on its way on an idle socket (closing it
    // then resets that request); during the drain each answer closes its socket.
    app.server.closeIdleConnections()
    await app.close() // stops the listener, waits for in-flight requests and their connections
    requestsFinished = true
    await database.close().catch((error: unknown) => app.log.warn({ err: error }, 'closing the database failed'))
    app.log.info('shut down')
    process.exit(exitCode)
  }

  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled rejection'))
  process.on('uncaughtException', (error) => {
    if (isDatabaseUnavailable(error)) {
      app.log.error({ err: error }, 'uncaught database error')
      return
    }
    app.log.fatal({ err: error }, 'uncaught exception: shutting down')
    exitCode = 1
    void shutdown('uncaughtException')
  })
}
