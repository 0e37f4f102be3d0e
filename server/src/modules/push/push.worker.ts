import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { Config } from '../../config.ts'
import type { Dialect } from '../../db/database.ts'
import type { DB } from '../../db/schema.ts'
import { retrying } from '../../db/transaction.ts'
import { claimDue, recordAttempt } from '../../delivery/outbox.ts'
import type { Job, JobLog } from '../../jobs/job.ts'
import { DELIVERY_ERRORS, postWebhook, type PostResult } from '../webhooks/sender.ts'
import { vapidKeys, vapidSubject } from './push.keys.ts'
import * as repo from './push.repository.ts'
import { loadWebPush } from './web-push.ts'

export interface PushDeps {
  db: Kysely<DB>
  dialect: Dialect
  clock: Clock
  config: Pick<
    Config,
    'publicUrl' | 'mailFrom' | 'vapidKeys' | 'webhookAllowPrivate' | 'webhookPorts' | 'webhookTimeoutMs'
  >
  log?: JobLog
}

/** What one attempt came to; `gone`: the push service no longer knows the device (404/410), which is forgotten. */
export type PushOutcome = 'sent' | 'retry' | 'failed' | 'gone'

const BATCH = 20
const MAX_BATCHES = 50
/** How often the server's worker looks for due pushes. */
export const PUSH_POLL_MS = 1000
/** How long a push service keeps a message for a device that is offline. */
const TTL_SECONDS = 24 * 3600
/** Sent and failed pushes are forgotten after this long (their text names a proposal). */
export const PUSH_LOG_DAYS = 7
const PURGE_EVERY_MS = 60 * 60 * 1000

/**
 * Sends the push outbox (issue 30): claims due rows exactly as mail and
 * webhooks do (delivery/outbox.ts), encrypts each payload for its device
 * (RFC 8291, aes128gcm) and signs the request with the deployment's VAPID key
 * (RFC 8292) through `web-push`, and posts it with the webhooks' guarded
 * sender (no private addresses unless WEBHOOK_ALLOW_PRIVATE, no redirects, a
 * timeout). A 2xx is sent; 404 or 410 means the device unsubscribed: its row
 * and pending pushes go; anything else is retried on the shared schedule.
 */
export class PushWorker {
  constructor(private readonly deps: PushDeps) {}

  async runOnce(): Promise<number> {
    let made = 0
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const claimed = await this.claim(BATCH)
      if (claimed.length === 0) break
      await Promise.all(claimed.map((row) => this.attempt(row)))
      made += claimed.length
    }
    return made
  }

  /** Claims one push now, if still due, and sends it (the profile's test push). */
  async runOne(id: number): Promise<PushOutcome | null> {
    const [row] = await this.claim(1, id)
    return row ? this.attempt(row) : null
  }

  purgeLog(): Promise<number> {
    const before = new Date(this.deps.clock.now().getTime() - PUSH_LOG_DAYS * 24 * 3600 * 1000).toISOString()
    return retrying(() => repo.purgeFinishedPushes(this.deps.db, before))
  }

  private claim(limit: number, onlyId?: number): Promise<repo.PushRow[]> {
    const now = this.deps.clock.now()
    const leaseUntil = new Date(now.getTime() + this.deps.config.webhookTimeoutMs + 30_000)
    return claimDue(this.deps.db, this.deps.dialect, 'push_outbox', { now, leaseUntil, limit, onlyId })
  }

  private async attempt(row: repo.PushRow): Promise<PushOutcome> {
    const { db, config, clock } = this.deps
    const device = await db
      .selectFrom('push_subscriptions')
      .selectAll()
      .where('id', '=', row.subscription_id)
      .executeTakeFirst()
    if (!device) return 'gone' // removed meanwhile: its pushes went with it
    let result: PostResult
    try {
      const keys = await vapidKeys(db, config)
      const request = (await loadWebPush()).generateRequestDetails(
        { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
        row.payload,
        {
          vapidDetails: { subject: vapidSubject(config), publicKey: keys.publicKey, privateKey: keys.privateKey },
          TTL: TTL_SECONDS,
          contentEncoding: 'aes128gcm',
        },
      )
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]))
      result = await postWebhook(device.endpoint, request.body ?? new Uint8Array(), headers, {
        timeoutMs: config.webhookTimeoutMs,
        allowPrivate: config.webhookAllowPrivate,
        ports: config.webhookPorts,
      })
    } catch {
      // A key the library refuses (a malformed subscription) or an endpoint that is not a URL.
      result = { statusCode: null, error: DELIVERY_ERRORS.connect }
    }
    // Only ids and outcomes: the endpoint is a capability URL and the payload names a proposal.
    this.deps.log?.info(
      { push_id: row.id, subscription_id: row.subscription_id, attempt: row.attempts, status: result.statusCode },
      'push attempt',
    )
    if (result.statusCode === 404 || result.statusCode === 410) {
      await retrying(() => repo.forgetDevice(db, device.id))
      return 'gone'
    }
    return recordAttempt(db, 'push_outbox', row, { error: result.error, now: clock.now() })
  }
}

/** The push worker: due pushes every PUSH_POLL_MS, the finished ones forgotten once an hour. */
export function pushJob(deps: PushDeps): Job {
  const worker = new PushWorker(deps)
  let purgedAt = 0
  return {
    name: 'push',
    every: PUSH_POLL_MS,
    async run() {
      if (Date.now() - purgedAt >= PURGE_EVERY_MS) {
        purgedAt = Date.now()
        await worker.purgeLog()
      }
      await worker.runOnce()
    },
  }
}
