import { parentPort, workerData } from 'node:worker_threads'
import nodemailer from 'nodemailer'

/**
 * The SMTP client on its own thread (mail.worker.ts `smtpSender`): building
 * and sending a message costs about a millisecond of CPU, which on the main
 * thread would be taken from the requests (a vote telling 15 people queues 15
 * messages). The main thread keeps the outbox; this thread only talks SMTP.
 */
const { smtpUrl, timeoutMs } = workerData as { smtpUrl: string; timeoutMs: number }
const transport = nodemailer.createTransport({
  url: smtpUrl,
  pool: true,
  maxConnections: 5,
  connectionTimeout: timeoutMs,
  greetingTimeout: timeoutMs,
  socketTimeout: timeoutMs,
})

interface Job {
  id: number
  message?: { from: string; to: string; subject: string; text: string; html: string }
  close?: true
}

parentPort!.on('message', (job: Job) => {
  if (job.close) {
    transport.close()
    parentPort!.close()
    return
  }
  transport.sendMail(job.message!).then(
    () => parentPort!.postMessage({ id: job.id, ok: true }),
    (error: { message?: string; code?: string; responseCode?: number; response?: string }) =>
      parentPort!.postMessage({
        id: job.id,
        ok: false,
        error: {
          message: String(error.message ?? error),
          code: error.code,
          responseCode: error.responseCode,
          response: error.response,
        },
      }),
  )
})
