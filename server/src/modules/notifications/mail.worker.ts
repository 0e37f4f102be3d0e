import { Worker } from 'node:worker_threads'
import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.ts'
import { addSeconds } from '../../clock.ts'
import type { Config } from '../../config.ts'
import type { Dialect } from '../../db/database.ts'
import type { DB } from '../../db/schema.ts'
import { claimDue, recordAttempt } from '../../delivery/outbox.ts'
import type { Job, JobLog } from '../../jobs/job.ts'
import type { OutboxRow } from './outbox.repository.ts'

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

/**
 * The thread's entry: the compiled mail.thread.js in production; under tsx
 * (development, tests) the new thread must register tsx's loader for itself.
 */
function threadBoot(): string {
  const compiled = import.meta.url.endsWith('.js')
  const thread = new URL(compiled ? './mail.thread.js' : './mail.thread.ts', import.meta.url).href
  if (compiled) return `import(${JSON.stringify(thread)})`
  return `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
    .then((tsx) => { tsx.register(); return import(${JSON.stringify(thread)}) })`
}

/**
 * nodemailer over SMTP_URL on a worker thread (mail.thread.ts): pooled
 * connections, every wait bounded, and the CPU of building and sending
 * messages kept off the thread that answers requests. The thread starts with
 * the first message, not with the server: an idle thread with nodemailer
 * holds ~30 MB (docs/performance.md).
 */
export function smtpSender(config: Pick<Config, 'smtpUrl'>): { send: SendMail; close(): Promise<void> } {
  if (!config.smtpUrl) throw new Error('smtpSender needs SMTP_URL')
  const smtpUrl = config.smtpUrl
  let thread: Worker | null = null
  let nextId = 0
  const waiting = new Map<number, { resolve(): void; reject(error: unknown): void }>()
  let stopped: unknown = null
  const failAll = (error: unknown) => {
    stopped ??= error
    for (const job of waiting.values()) job.reject(error)
    waiting.clear()
  }
  const started = (): Worker => {
    if (thread) return thread
    thread = new Worker(threadBoot(), { eval: true, workerData: { smtpUrl, timeoutMs: SMTP_TIMEOUT_MS } })
    thread.unref()
    thread.on('message', (answer: { id: number; ok: boolean; error?: object }) => {
      const job = waiting.get(answer.id)
      waiting.delete(answer.id)
      if (answer.ok) job?.resolve()
      else job?.reject(Object.assign(new Error('SMTP delivery failed'), answer.error))
    })
    thread.on('error', failAll)
    thread.on('exit', () => failAll(new Error('the mail thread stopped')))
    return thread
  }
  return {
    send: (message) =>
      new Promise<void>((resolve, reject) => {
        if (stopped) return reject(stopped)
        const id = ++nextId
        waiting.set(id, { resolve, reject })
        started().postMessage({ id, message })
      }),
    async close() {
      stopped ??= new Error('the mail sender is closed')
      const running = thread
      if (!running) return
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()))
      running.postMessage({ id: 0, close: true })
      // A thread that does not end by itself (a hung SMTP connection) is stopped.
      const timer = setTimeout(() => void running.terminate(), 5000)
      await exited
      clearTimeout(timer)
    },
  }
}

const describe = (error: unknown): string => {
  const e = error as { responseCode?: number; response?: string; code?: string; message?: string }
  return e.response ?? (e.responseCode ? `SMTP ${e.responseCode}` : (e.code ?? e.message ?? String(error)))
}

/** One message: sent, or back to pending at the next time of the schedule, or failed after the last attempt. */
async function deliverOne(deps: MailDeps, row: OutboxRow): Promise<'sent' | 'retry' | 'failed'> {
  let error: string | null = null
  try {
    await deps.send({
      from: deps.config.mailFrom,
      to: row.to_address,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
    })
  } catch (failure) {
    error = describe(failure)
  }
  return recordAttempt(deps.db, 'mail_outbox', row, { error, now: deps.clock.now() })
}

export interface DeliveryRound {
  sent: number
  retry: number
  failed: number
}

/**
 * Delivers every message due now, round after round until none is left:
 * each round claims a batch (delivery/outbox.ts `claimDue`: one worker per
 * message, whatever the number of instances) and sends it.
 */
export async function deliverDue(deps: MailDeps): Promise<DeliveryRound> {
  const total: DeliveryRound = { sent: 0, retry: 0, failed: 0 }
  for (;;) {
    const now = deps.clock.now()
    const leaseUntil = addSeconds(now, LEASE_SECONDS)
    const rows = await claimDue(deps.db, deps.dialect, 'mail_outbox', { now, leaseUntil, limit: BATCH })
    if (rows.length === 0) return total
    const outcomes = await Promise.all(rows.map((row) => deliverOne(deps, row)))
    for (const outcome of outcomes) total[outcome]++
  }
}

/** How often the worker looks for due mail. */
export const MAIL_POLL_MS = 1000

/**
 * The mail worker: delivers what is due every MAIL_POLL_MS. Without SMTP_URL
 * it does nothing; its SMTP thread starts with the first round.
 */
export function mailJob(
  deps: Omit<MailDeps, 'send' | 'config'> & { config: Config; log: JobLog; pollMs?: number },
): Job {
  let sender: ReturnType<typeof smtpSender> | null = null
  return {
    name: 'mail',
    every: deps.pollMs ?? MAIL_POLL_MS,
    async run() {
      if (!deps.config.smtpUrl) return
      sender ??= smtpSender(deps.config)
      const done = await deliverDue({ ...deps, send: sender.send })
      if (done.sent + done.retry + done.failed > 0) deps.log.info({ mail: done }, 'mail: delivery round')
    },
    close: async () => sender?.close(),
  }
}
