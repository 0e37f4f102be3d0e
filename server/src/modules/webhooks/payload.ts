import crypto from 'node:crypto'
import type { Stage, WebhookFormat } from '@stake/contract'

/** What a delivery reports: the event and the proposal as it was at that moment. */
export interface DeliveryFacts {
  event: string
  at: string
  proposal: {
    id: number
    proposed_calling: string
    ward_id: number
    ward_name: string | null
    stage: Stage
    /** call, release or ordination (docs/api-reference.md §18), and an ordination's office. */
    kind: string
    office: string | null
  } | null
  /** Only for webhooks with include_names; never the spouse. */
  names: { fname: string; lname: string } | null
}

/** The stages as a channel message names them (the board's English labels). */
const STAGE_LABELS: Record<Stage, string> = {
  sp_approval: 'Presidency approval',
  hc_approval: 'High council approval',
  interview: 'Interview',
  sustain: 'Sustain',
  set_apart: 'Set apart',
  ordain: 'Ordain',
  record: 'Record',
  done: 'Done',
  declined: 'Declined',
}

const HEADLINES: Record<string, (stage: string) => string> = {
  proposal_created: (stage) => `New proposal, at ${stage}`,
  stage_changed: (stage) => `Proposal moved to ${stage}`,
  declined: () => 'Proposal declined',
  interview_assigned: () => 'Interviewer assigned',
  comment: () => 'New comment on a proposal',
}

/** The web client's page of a proposal under PUBLIC_URL; null when PUBLIC_URL is not set. */
const proposalUrl = (publicUrl: string | null, id: number): string | null =>
  publicUrl === null ? null : `${publicUrl}/proposals/${id}`

interface Message {
  headline: string
  /** "Jane Doe — Elders quorum president" or just the calling. */
  subject: string | null
  ward: string | null
  stage: string | null
  url: string | null
}

const OFFICE_LABELS: Record<string, string> = { elder: 'elder', high_priest: 'high priest' }

/** The calling, or for an ordination "Ordination: elder". */
const what = (p: NonNullable<DeliveryFacts['proposal']>): string =>
  p.kind === 'ordination' && p.office ? `Ordination: ${OFFICE_LABELS[p.office] ?? p.office}` : p.proposed_calling

function message(facts: DeliveryFacts, publicUrl: string | null): Message {
  const p = facts.proposal
  if (!p) {
    return {
      headline: 'Test message from the Stake Administration Service: this webhook works.',
      subject: null,
      ward: null,
      stage: null,
      url: null,
    }
  }
  const stage = STAGE_LABELS[p.stage] ?? p.stage
  const who = facts.names ? `${facts.names.fname} ${facts.names.lname}` : null
  return {
    headline: (HEADLINES[facts.event] ?? (() => facts.event))(stage),
    subject: who ? `${who} — ${what(p)}` : what(p),
    ward: p.ward_name ?? `Ward ${p.ward_id}`,
    stage,
    url: proposalUrl(publicUrl, p.id),
  }
}

/** Slack's mrkdwn control characters: names and callings cannot open links or mentions. */
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** Discord markdown: names and callings cannot format, link or mention (mentions are also disabled). */
const discordEscape = (text: string) => text.replace(/[\\*_~`|>[\]()<]/g, (c) => `\\${c}`)

function jsonBody(facts: DeliveryFacts, publicUrl: string | null) {
  const p = facts.proposal
  return {
    event: facts.event,
    at: facts.at,
    proposal: p && {
      id: p.id,
      proposed_calling: p.proposed_calling,
      ward_id: p.ward_id,
      stage: p.stage,
      kind: p.kind,
      office: p.office,
      url: proposalUrl(publicUrl, p.id),
    },
    ...(facts.names ? { names: { fname: facts.names.fname, lname: facts.names.lname } } : {}),
  }
}

function slackBody(facts: DeliveryFacts, publicUrl: string | null) {
  const m = message(facts, publicUrl)
  const line = [m.subject && `*${slackEscape(m.subject)}*`, m.ward && slackEscape(m.ward)].filter(Boolean).join(' · ')
  const text = [m.headline, line].filter(Boolean).join(': ')
  const context = [m.stage && `Stage: ${m.stage}`, m.url && `<${m.url}|Open the proposal>`].filter(Boolean)
  return {
    text: m.url ? `${text} <${m.url}|Open>` : text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: [`*${m.headline}*`, line].filter(Boolean).join('\n') } },
      ...(context.length ? [{ type: 'context', elements: [{ type: 'mrkdwn', text: context.join(' · ') }] }] : []),
    ],
  }
}

function discordBody(facts: DeliveryFacts, publicUrl: string | null) {
  const m = message(facts, publicUrl)
  const fields = [
    m.stage && { name: 'Stage', value: m.stage, inline: true },
    m.ward && { name: 'Ward', value: discordEscape(m.ward), inline: true },
  ].filter(Boolean)
  return {
    content: [m.headline, m.subject && discordEscape(m.subject)].filter(Boolean).join(': '),
    embeds: m.subject
      ? [
          {
            title: m.subject,
            ...(m.url ? { url: m.url } : {}),
            description: m.headline,
            fields,
            timestamp: facts.at,
          },
        ]
      : [],
    // A name or calling can never ping anyone.
    allowed_mentions: { parse: [] },
  }
}

/** The request body of a delivery in the webhook's format (docs/api-reference.md §11). */
export function renderBody(format: WebhookFormat, facts: DeliveryFacts, publicUrl: string | null): string {
  const body =
    format === 'slack'
      ? slackBody(facts, publicUrl)
      : format === 'discord'
        ? discordBody(facts, publicUrl)
        : jsonBody(facts, publicUrl)
  return JSON.stringify(body)
}

/** `sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>` (docs/api-reference.md §11). */
function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`
}

/** The headers of every delivery: the JSON type, the event, and the signature over timestamp and body. */
export function deliveryHeaders(
  secret: string,
  event: string,
  deliveryId: number,
  now: Date,
  body: string,
): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000))
  return {
    'content-type': 'application/json',
    'user-agent': 'StakeAdministration-Webhooks/1',
    'x-stake-event': event,
    'x-stake-delivery': String(deliveryId),
    'x-stake-timestamp': timestamp,
    'x-stake-signature': signature(secret, timestamp, body),
  }
}

export const newSecret = () => `whsec_${crypto.randomBytes(32).toString('base64url')}`
