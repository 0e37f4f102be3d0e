import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Recorded<Body> {
  path: string
  headers: http.IncomingHttpHeaders
  body: Body
}

/**
 * A real HTTP server on 127.0.0.1 that records every request (its body read
 * by `decode`) and answers `status`, or the status chosen for the next
 * requests to a path (`answer`), with `failureBody` then.
 */
export async function startRecorder<Body>(status: number, decode: (body: Buffer) => Body, failureBody?: string) {
  const received: Recorded<Body>[] = []
  const answers = new Map<string, { left: number; status: number }>()
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const path = request.url ?? '/'
      received.push({ path, headers: request.headers, body: decode(Buffer.concat(chunks)) })
      const answer = answers.get(path)
      if (answer && answer.left > 0) {
        answer.left--
        response.writeHead(answer.status).end(failureBody)
        return
      }
      response.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    received,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    at: (path: string) => received.filter((r) => r.path === path),
    /** The next `count` requests to `path` get `status`. */
    answer(path: string, count: number, status: number) {
      answers.set(path, { left: count, status })
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
