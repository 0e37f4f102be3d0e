// A small closed-loop load generator: `concurrency` workers, each sending one
// request at a time over its own keep-alive connection for a fixed time, and
// every request's latency kept (exact percentiles, sub-millisecond, which
// autocannon's integer-millisecond histogram cannot give at concurrency 1).
import http from 'node:http'

export interface Request {
  method: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  body?: string
}

export interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
}

export interface Stats {
  p50: number
  p99: number
  rps: number
  count: number
  /** Requests answered with an unexpected status, or that failed. */
  failures: number
  firstFailure: string | null
}

export interface Workload {
  /** The next request; workers take them in turn. */
  next(): Request
  /** Sees every answer (the refresh run takes the rotated cookie from it). */
  onAnswer?(request: Request, answer: Answer): void
  expect?: number
}

export function send(agent: http.Agent, baseUrl: string, request: Request): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}${request.path}`,
      { method: request.method, headers: request.headers, agent },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(request.body)
  })
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN

/** Runs the workload for `seconds` (after `warmupSeconds` unmeasured, so the server's JIT is warm). */
export async function measure(
  baseUrl: string,
  workload: Workload,
  concurrency: number,
  seconds: number,
  warmupSeconds: number,
): Promise<Stats> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })
  const latencies: number[] = []
  let failures = 0
  let firstFailure: string | null = null
  const expect = workload.expect ?? 200
  const warmUntil = performance.now() + warmupSeconds * 1000
  const until = warmUntil + seconds * 1000
  const worker = async () => {
    for (;;) {
      const started = performance.now()
      if (started >= until) return
      const request = workload.next()
      try {
        const answer = await send(agent, baseUrl, request)
        workload.onAnswer?.(request, answer)
        if (answer.status !== expect) {
          failures++
          firstFailure ??= `${request.method} ${request.path} → ${answer.status} ${answer.body.slice(0, 200)}`
        }
      } catch (error) {
        failures++
        firstFailure ??= `${request.method} ${request.path} → ${(error as Error).message}`
      }
      if (started >= warmUntil) latencies.push(performance.now() - started)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  agent.destroy()
  latencies.sort((a, b) => a - b)
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    rps: latencies.length / seconds,
    count: latencies.length,
    failures,
    firstFailure,
  }
}
