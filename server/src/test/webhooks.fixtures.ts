import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  path: string
  headers: http.IncomingHttpHeaders
  body: string
}

/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests: records every request
 * and answers 204, or a failure status for the next requests to a path.
 */
export async function startReceiver() {
  const received: Received[] = []
  const failures = new Map<string, { left: number; status: number }>()
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const path = request.url ?? '/'
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString() })
      const failure = failures.get(path)
      if (failure && failure.left > 0) {
        failure.left--
        response.writeHead(failure.status).end('nope')
        return
      }
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    received,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    at: (path: string) => received.filter((r) => r.path === path),
    /** The next `count` requests to `path` get `status`. */
    fail(path: string, count: number, status = 500) {
      failures.set(path, { left: count, status })
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * What a receiver does to trust a delivery (README "Webhooks"), written out
 * independently of the server's code: HMAC-SHA256 over `timestamp.body`,
 * compared in constant time.
 */
export function verifies(secret: string, request: Received): boolean {
  const timestamp = String(request.headers['x-stake-timestamp'])
  const hex = crypto.createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')
  const expected = Buffer.from(`sha256=${hex}`)
  const given = Buffer.from(String(request.headers['x-stake-signature']))
  return expected.length === given.length && crypto.timingSafeEqual(expected, given)
}
