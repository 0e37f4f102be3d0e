import { acrossStakes } from '../../db/stake-scope.ts'
import crypto from 'node:crypto'
import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { Kysely } from 'kysely'
import type { DB } from '../../db/schema.ts'
import { unauthorized } from '../../errors.ts'

interface MetricsOptions {
  /** The bearer token a scraper must send (config.metricsToken). */
  token: string
  db: Kysely<DB>
}

/** Requests that matched no route share one label value, so a scan of random URLs adds no series. */
const UNMATCHED_ROUTE = '(unmatched)'

/**
 * Seconds; Prometheus's default buckets plus a 30 s one, since a request may
 * wait up to REQUEST_TIMEOUT_MS and a database statement up to its own timeout.
 */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

/** Hashed first, so the comparison takes the same time whatever the lengths. */
function sameToken(presented: string, expected: string): boolean {
  const digest = (value: string) => crypto.createHash('sha256').update(value).digest()
  return crypto.timingSafeEqual(digest(presented), digest(expected))
}

function presentedToken(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')
  return match ? match[1]! : null
}

/**
 * Outbox counts by state, one grouped statement per outbox. Read from the
 * database at scrape time, not counted in memory, so every instance over one
 * database reports the same (correct) figures.
 */
async function outboxCounts(db: Kysely<DB>) {
  // The deployment's queues, every stake's rows (the operator's view).
  const [mail, webhooks] = await acrossStakes(() =>
    Promise.all([
      db
        .selectFrom('mail_outbox')
        .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
        .where('status', 'in', ['pending', 'sending', 'failed'])
        .groupBy('status')
        .execute(),
      db
        .selectFrom('webhook_deliveries')
        .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
        .where('status', 'in', ['pending', 'failed'])
        .groupBy('status')
        .execute(),
    ]),
  )
  const count = (rows: { status: string; n: number | string }[], ...statuses: string[]) =>
    rows.filter((r) => statuses.includes(r.status)).reduce((sum, r) => sum + Number(r.n), 0)
  return {
    // A mail being sent (claimed by a worker) has not left yet: it is still queued.
    pending: { mail: count(mail, 'pending', 'sending'), webhook: count(webhooks, 'pending') },
    failed: { mail: count(mail, 'failed'), webhook: count(webhooks, 'failed') },
  }
}

/**
 * GET /metrics in the Prometheus text format, for a scraper holding
 * METRICS_TOKEN. Registered only when the token is set (app.ts): otherwise
 * the path is as unknown as any other. A registry per app, so several apps in
 * one process (the tests) never share or clash over a metric.
 */
export default fp(
  async function metrics(app: FastifyInstance, options: MetricsOptions) {
    const registry = new Registry()
    // Process memory, CPU, handles, GC and event-loop lag (prom-client's defaults).
    collectDefaultMetrics({ register: registry })

    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer a request, by route pattern (never the raw URL), method and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: DURATION_BUCKETS,
      registers: [registry],
    })
    app.addHook('onResponse', async (request, reply) => {
      duration.observe(
        {
          method: request.method,
          route: request.routeOptions.url ?? UNMATCHED_ROUTE,
          status: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      )
    })

    const pending = new Gauge({
      name: 'stake_outbox_pending',
      help: 'Mail and webhook deliveries not yet delivered (mail being sent included)',
      labelNames: ['outbox'] as const,
      registers: [registry],
    })
    const failed = new Gauge({
      name: 'stake_outbox_failed',
      help: 'Mail and webhook deliveries that gave up after their last attempt',
      labelNames: ['outbox'] as const,
      registers: [registry],
    })

    app.get('/metrics', { config: { auth: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const token = presentedToken(request)
      if (token === null || !sameToken(token, options.token)) throw unauthorized()
      const counts = await outboxCounts(options.db)
      for (const outbox of ['mail', 'webhook'] as const) {
        pending.set({ outbox }, counts.pending[outbox])
        failed.set({ outbox }, counts.failed[outbox])
      }
      const body = await registry.metrics()
      return reply.type(registry.contentType).header('cache-control', 'no-store').send(body)
    })
  },
  { name: 'metrics' },
)
