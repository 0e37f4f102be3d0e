import nodemailer from 'nodemailer'
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.ts'
import { addSeconds } from '../../clock.ts'
import type { Config } from '../../config.ts'
import type { Dialect } from '../../db/database.ts'
import type { DB } from '../../db/schema.ts'
import { retrying } from '../../db/transaction.ts'
import { nextAttemptAt } from '../../delivery/schedule.ts'
import { claimDue, markFailed, markSent, type OutboxRow } from './outbox.repository.ts'

/** What one message needs to go out; nodemailer over SMTP_URL in the server, anything in a test. */
export type SendMail = (message: {
  from: string
  to: string
  subject: string
  text: string
  html: string
}) => Promise<unknown>

export interface MailDeps {
  db: Kysely<DB>
  dialect: Dialect
  clock: Clock
  config: Pick<Config, 'smtpUrl' | 'mailFrom'>
  send: SendMail
}

/** Messages claimed per round, sent side by side over the pooled connections. */
const BATCH = 50
/** How long a claim holds: far longer than a batch may take to send (each wait is bounded by the SMTP timeouts below). */
const LEASE_SECONDS = 600
const SMTP_TIMEOUT_MS = 30_000

/** nodemailer over SMTP_URL: pooled connections, every wait bounded. */
export function smtpSender(config: Pick<Config, 'smtpUrl'>): { send: SendMail; close(): void } {
  if (!config.smtpUrl) throw new Error('smtpSender needs SMTP_URL')
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    pool: true,
    maxConnections: 5,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  })
  return { send: (message) => transport.sendMail(message), close: () => transport.close() }
}

const describe = (error: unknown): string => {
  const e = error as { responseCode?: number; response?: string; code?: string; message?: string }
  return e.response ?? (e.responseCode ? `SMTP ${e.responseCode}` : (e.code ?? e.message ?? String(error)))
}

/** One message: sent, or back to pending at the next time of the schedule, or failed after the last attempt. */
async function deliverOne(deps: MailDeps, row: OutboxRow, leaseUntil: string): Promise<'sent' | 'retry' | 'failed'> {
  try {
    await deps.send({
      from: deps.config.mailFrom,
      to: row.to_address,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
    })
  } catch (error) {
    const created = new Date(row.created_at)
    const next = nextAttemptAt(created, row.attempts + 1)
    // An attempt that ran late (the worker was down) keeps at least the schedule's gap
    // before the next one, so the attempts are not spent all at once.
    const gap = next === null ? 0 : next.getTime() - nextAttemptAt(created, row.attempts)!.getTime()
    const nextIso =
      next === null ? null : new Date(Math.max(next.getTime(), deps.clock.now().getTime() + gap)).toISOString()
    await retrying(() => markFailed(deps.db, row.id, leaseUntil, describe(error), nextIso))
    return next === null ? 'failed' : 'retry'
  }
  await retrying(() => markSent(deps.db, row.id, leaseUntil, deps.clock.iso()))
  return 'sent'
}

export interface DeliveryRound {
  sent: number
  retry: number
  failed: number
}

/**
 * Delivers every message due now, round after round until none is left:
 * each round claims a batch (outbox.repository `claimDue`: one worker per
 * message, whatever the number of instances) and sends it.
 */
export async function deliverDue(deps: MailDeps): Promise<DeliveryRound> {
  const total: DeliveryRound = { sent: 0, retry: 0, failed: 0 }
  for (;;) {
    const now = deps.clock.now()
    const leaseUntil = addSeconds(now, LEASE_SECONDS).toISOString()
    const rows = await retrying(() => claimDue(deps.db, deps.dialect, now.toISOString(), leaseUntil, BATCH))
    if (rows.length === 0) return total
    const outcomes = await Promise.all(rows.map((row) => deliverOne(deps, row, leaseUntil)))
    for (const outcome of outcomes) total[outcome]++
  }
}

/** How often the worker looks for due mail. */
export const MAIL_POLL_MS = 1000

/**
 * The mail worker of the server process: main.ts starts it after listen and
 * stops it on shutdown (like housekeeping); buildApp never does, so tests get
 * no timers. Without SMTP_URL it does nothing. A failed round is logged and
 * the next one tries again.
 */
export function mailWorker(
  deps: Omit<MailDeps, 'send' | 'config'> & { config: Config; log: FastifyBaseLogger; pollMs?: number },
) {
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  let running: Promise<void> = Promise.resolve()
  const sender = deps.config.smtpUrl ? smtpSender(deps.config) : null
  const round = () => {
    if (!sender || stopped) return
    running = deliverDue({ ...deps, send: sender.send }).then(
      (done) => {
        if (done.sent + done.retry + done.failed > 0) deps.log.info({ mail: done }, 'mail: delivery round')
      },
      (error: unknown) => deps.log.error({ err: error }, 'mail delivery failed'),
    )
    void running.finally(() => {
      if (!stopped) timer = setTimeout(round, deps.pollMs ?? MAIL_POLL_MS).unref()
    })
  }
  return {
    start() {
      round()
    },
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
      sender?.close()
    },
  }
}
