import { createTestApp } from './harness.ts'
import { SmtpReceiver, type ReceivedMail } from './smtp-receiver.ts'
import { deliverDue, smtpSender } from '../modules/notifications/mail.worker.ts'

export const PUBLIC = 'https://stake.example.org'

/** An app that mails through a real SMTP server in the test process, and the means to send what waits. */
export async function mailingApp(env: Record<string, string> = {}, options: Parameters<typeof createTestApp>[1] = {}) {
  const receiver = await SmtpReceiver.start()
  const t = await createTestApp(
    { SMTP_URL: receiver.url(), MAIL_FROM: 'Stake <stake@example.org>', PUBLIC_URL: PUBLIC, ...env },
    options,
  )
  const sender = smtpSender(t.config)
  return {
    t,
    receiver,
    /** Runs the mail worker's round now: everything pending goes to the receiver. */
    deliver: () =>
      deliverDue({
        db: t.database.db,
        dialect: t.database.dialect,
        clock: t.clock,
        config: t.config,
        send: sender.send,
      }),
    async close() {
      await sender.close()
      await t.close()
      await receiver.close()
    },
  }
}

/** The token of the first `PUBLIC/<page>#<token>` link in a mail's text (and the same link must be in its HTML). */
export function linkToken(mail: ReceivedMail, page: 'welcome' | 'reset-password'): string {
  const pattern = new RegExp(`${PUBLIC.replace(/[.]/g, '\\.')}/${page}#([A-Za-z0-9_-]{43})`)
  const token = pattern.exec(mail.text)?.[1]
  if (!token) throw new Error(`no ${page} link in: ${mail.text}`)
  if (!mail.html.includes(`${PUBLIC}/${page}#${token}`)) throw new Error('the HTML part lacks the link')
  return token
}

export const mailTo = (receiver: SmtpReceiver, address: string): ReceivedMail[] =>
  receiver.mail.filter((m) => m.to.includes(address.toLowerCase()) || m.to.includes(address))
