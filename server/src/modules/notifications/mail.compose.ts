import type { Config } from '../../config.ts'
import { translator } from './texts.ts'

export interface ComposedMail {
  subject: string
  text: string
  html: string
}

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** Where links in mail point: PUBLIC_URL, else the server's own address (README "Mail and notifications"). */
export function linkBase(config: Pick<Config, 'publicUrl' | 'host' | 'port'>): string {
  if (config.publicUrl) return config.publicUrl
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`
}

const proposalLink = (base: string, proposalId: number): string => `${base}/proposals/${proposalId}`

export interface MailItem {
  text: string
  proposal_id: number | null
}

/**
 * One notification, or a day's digest of several, as plain text and HTML.
 * The body carries the notification texts (already limited to what the
 * recipient may see) and links to the proposals; nothing else about them.
 */
export function composeMail(
  language: string,
  recipientName: string,
  subjectKey: string,
  items: MailItem[],
  base: string,
): ComposedMail {
  const t = translator(language)
  const digest = subjectKey === 'digest'
  const subject = t(`subject.${subjectKey}`, { count: items.length })
  const greeting = t('mail.greeting', { name: recipientName })
  const open = t('mail.open')
  const footer = t('mail.footer')
  const textItems = items.map((item) =>
    item.proposal_id === null ? item.text : `${item.text}\n${open}: ${proposalLink(base, item.proposal_id)}`,
  )
  const text = [greeting, ...(digest ? [t('mail.digestIntro')] : []), ...textItems, `-- \n${footer}`].join('\n\n')
  const htmlItems = items.map((item) => {
    const link =
      item.proposal_id === null
        ? ''
        : ` <a href="${escapeHtml(proposalLink(base, item.proposal_id))}">${escapeHtml(open)}</a>`
    return `<p>${escapeHtml(item.text)}${link}</p>`
  })
  const html = [
    '<!doctype html><html><body>',
    `<p>${escapeHtml(greeting)}</p>`,
    ...(digest ? [`<p>${escapeHtml(t('mail.digestIntro'))}</p>`] : []),
    ...htmlItems,
    `<hr><p><small>${escapeHtml(footer)}</small></p>`,
    '</body></html>',
  ].join('\n')
  return { subject, text, html }
}
