import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { Config } from '../../config.ts'
import type { Dialect } from '../../db/database.ts'
import type { DB } from '../../db/schema.ts'
import { retrying } from '../../db/transaction.ts'
import { claimDue, recordAttempt } from '../../delivery/outbox.ts'
import type { Job, JobLog } from '../../jobs/job.ts'
import { deliveryHeaders, renderBody, type DeliveryFacts } from './payload.ts'
import { DELIVERY_ERRORS, postWebhook, type PostResult } from './sender.ts'
import * as repo from './webhooks.repository.ts'

export interface WorkerDeps {
  db: Kysely<DB>
  dialect: Dialect
  clock: Clock
  config: Pick<Config, 'publicUrl' | 'webhookAllowPrivate' | 'webhookPorts' | 'webhookTimeoutMs'>
  log?: JobLog
}

/** Deliveries claimed (and posted concurrently) at a time. */
const BATCH = 20
/** Batches per run, so a stop() is never kept waiting behind an endless backlog. */
const MAX_BATCHES = 50
/** How often the server's worker looks for due deliveries. */
const WEBHOOK_POLL_MS = 2000
/** Delivered and failed deliveries stay in the log this long. */
const DELIVERY_LOG_DAYS = 30
const PURGE_EVERY_MS = 60 * 60 * 1000

function factsOf(row: repo.DeliveryRow): DeliveryFacts {
  return {
    event: row.event,
    at: row.at,
    proposal:
      row.proposal_id === null || row.stage === null
        ? null
        : {
            id: row.proposal_id,
            proposed_calling: row.proposed_calling ?? '',
            ward_id: row.ward_id ?? 0,
            ward_name: row.ward_name,
            stage: row.stage,
            kind: row.kind ?? 'call',
            office: row.office ?? null,
          },
    names: row.fname !== null && row.lname !== null ? { fname: row.fname, lname: row.lname } : null,
  }
}

/**
 * Posts webhook deliveries: claims due rows (delivery/outbox.ts: exactly one
 * worker per attempt, however many instances run), posts each with a
 * timeout, and records the outcome: delivered on a 2xx answer, otherwise the
 * next try on the shared schedule (delivery/schedule.ts) or failed when none
 * is left. Nothing here runs inside a request's transaction.
 */
export class WebhookWorker {
  constructor(private readonly deps: WorkerDeps) {}

  /** Claims and posts the due deliveries until none is due; returns how many attempts were made. */
  async runOnce(): Promise<number> {
    let made = 0
    if (!(await repo.anyDue(this.deps.db, this.deps.clock.iso()))) return made
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const claimed = await this.claim(BATCH)
      if (claimed.length === 0) break
      // Webhooks in parallel; each webhook's deliveries one after another, oldest first,
      // so a channel reads "submitted" before "moved" (retries may still come later).
      const byWebhook = new Map<number, repo.DeliveryRow[]>()
      const ordered = [...claimed].sort((a, b) => a.id - b.id)
      for (const row of ordered) byWebhook.set(row.webhook_id, [...(byWebhook.get(row.webhook_id) ?? []), row])
      await Promise.all(
        [...byWebhook.values()].map(async (rows) => {
          for (const row of rows) await this.attempt(row)
        }),
      )
      made += claimed.length
    }
    return made
  }

  /** Forgets delivered and failed deliveries older than DELIVERY_LOG_DAYS; returns how many. */
  purgeLog(): Promise<number> {
    const before = new Date(this.deps.clock.now().getTime() - DELIVERY_LOG_DAYS * 24 * 3600 * 1000).toISOString()
    return retrying(() => repo.purgeFinished(this.deps.db, before))
  }

  /** Claims one delivery now, if it is still due, and posts it (POST /webhooks/{id}/test). */
  async runOne(id: number): Promise<void> {
    const [row] = await this.claim(1, id)
    if (row) await this.attempt(row)
  }

  private claim(limit: number, onlyId?: number): Promise<repo.DeliveryRow[]> {
    const now = this.deps.clock.now()
    // The lease outlasts a whole attempt; a worker that dies mid-post leaves the row to another after it.
    const leaseUntil = new Date(now.getTime() + this.deps.config.webhookTimeoutMs + 30_000)
    return claimDue(this.deps.db, this.deps.dialect, 'webhook_deliveries', { now, leaseUntil, limit, onlyId })
  }

  private async attempt(row: repo.DeliveryRow): Promise<void> {
    const { db, config, clock } = this.deps
    const webhook = await repo.findWebhook(db, row.webhook_id)
    if (!webhook) return // deleted meanwhile: its deliveries went with it
    const body = renderBody(webhook.format, factsOf(row), config.publicUrl)
    const headers = deliveryHeaders(webhook.secret, row.event, row.id, clock.now(), body)
    let result: PostResult
    try {
      result = await postWebhook(webhook.url, body, headers, {
        timeoutMs: config.webhookTimeoutMs,
        allowPrivate: config.webhookAllowPrivate,
        ports: config.webhookPorts,
      })
    } catch {
      result = { statusCode: null, error: DELIVERY_ERRORS.connect }
    }
    const outcome = await recordAttempt(
      db,
      'webhook_deliveries',
      row,
      { error: result.error, now: clock.now() },
      { last_status_code: result.statusCode },
    )
    const delivered = outcome === 'sent'
    // Only ids and outcomes: the URL may itself be a credential (Slack, Discord) and the secret never leaves the row.
    this.deps.log?.info(
      { webhook_id: row.webhook_id, delivery_id: row.id, attempt: row.attempts, status: result.statusCode, delivered },
      'webhook delivery attempt',
    )
  }
}

/** The webhook worker: due deliveries every WEBHOOK_POLL_MS, the delivery log's purge once an hour. */
export function webhookJob(deps: WorkerDeps): Job {
  const worker = new WebhookWorker(deps)
  let purgedAt = 0
  return {
    name: 'webhooks',
    every: WEBHOOK_POLL_MS,
    async run() {
      if (Date.now() - purgedAt >= PURGE_EVERY_MS) {
        purgedAt = Date.now()
        await worker.purgeLog()
      }
      await worker.runOnce()
    },
  }
}
