import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import type { Config } from '../config.ts'
import { unavailable } from '../errors.ts'

/**
 * Where the instance is in its shutdown (main.ts drives it):
 * - `draining`: SIGTERM received. /ready answers 503 so a load balancer stops
 *   sending traffic, requests still on their way are served, and every answer
 *   carries `Connection: close` so no socket stays open for the next one.
 * - `closing`: the listener is closed. A request still arriving on an open
 *   connection gets 503 `unavailable` (instead of Fastify's own body).
 */
class Lifecycle {
  draining = false
  closing = false
}

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: Lifecycle
  }
}

/** Server options bounding how long a client may hold a connection (README "Operations"). */
export function connectionLimits(config: Config): Partial<FastifyServerOptions> {
  const { requestTimeoutMs, keepAliveTimeoutMs } = config.timeouts
  return {
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    return503OnClosing: false,
    // Node checks request and header timeouts every `connectionsCheckingInterval`
    // (30 s by default), which would let a slow client hold on far longer.
    http: { headersTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(1000, requestTimeoutMs) },
    clientErrorHandler: answerClientError,
  } as Partial<FastifyServerOptions>
}

/**
 * A request Node gave up on before Fastify saw it (timed out, headers too
 * large, unparsable): answered with the contract's `{detail}` body, then the
 * socket is closed (as Fastify's own handler does, with its own body).
 */
/** Whether the header overflow is the request line itself (a URI too long), not the headers after it. */
function uriOverflows(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): boolean {
  const packet = error.rawPacket
  // Only a packet that starts the request tells where its first line ends.
  if (!packet || !/^[A-Z]+ /.test(packet.subarray(0, 16).toString('latin1'))) return false
  const end = packet.indexOf('\r\n')
  return end === -1 || end > URI_LINE_LIMIT
}

/** A request line longer than this, when Node's header limit is reached, is answered 414. */
const URI_LINE_LIMIT = 8 * 1024

function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const status =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 408
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? uriOverflows(error)
          ? 414
          : 431
        : 400
  const body = JSON.stringify({ detail: STATUS_CODES[status] })
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy(error)
}

export default fp(async function lifecyclePlugin(app: FastifyInstance) {
  const lifecycle = new Lifecycle()
  app.decorate('lifecycle', lifecycle)
  app.addHook('onRequest', (_request, reply, done) => {
    if (!lifecycle.draining) return done()
    reply.header('Connection', 'close')
    done(lifecycle.closing ? unavailable('The service is shutting down') : undefined)
  })
})
