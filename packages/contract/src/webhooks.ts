import { Type, type Static } from 'typebox'
import { Id, Limit, Offset, Timestamp } from './common.ts'

/** Webhooks (docs/api-reference.md §11): outgoing messages about proposals, managed by `proposals.manage`. */

export * from './webhook-kinds.ts'

export const WebhookEventName = Type.Union([
  Type.Literal('proposal_created'),
  Type.Literal('stage_changed'),
  Type.Literal('declined'),
  Type.Literal('interview_assigned'),
  Type.Literal('comment'),
])

export const WebhookFormatName = Type.Union([Type.Literal('json'), Type.Literal('slack'), Type.Literal('discord')])

export const WebhookBody = Type.Object({
  /** http(s) on ports 80 and 443 (or WEBHOOK_PORTS) only; private, loopback and similar addresses are refused; WEBHOOK_ALLOW_PRIVATE=true lifts both. */
  url: Type.String({ minLength: 1, maxLength: 2000 }),
  /** At least one; duplicates are ignored. */
  events: Type.Array(WebhookEventName, { minItems: 1, maxItems: 20 }),
  format: Type.Optional(WebhookFormatName),
  /** Whether payloads name the person proposed (fname, lname); never the spouse. Default false. */
  include_names: Type.Optional(Type.Boolean()),
})
export type WebhookBody = Static<typeof WebhookBody>

export const Webhook = Type.Object({
  id: Id,
  url: Type.String(),
  events: Type.Array(WebhookEventName),
  format: WebhookFormatName,
  include_names: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type Webhook = Static<typeof Webhook>

/** The answer to POST /webhooks: the only time the signing secret is shown. */
export const CreatedWebhook = Type.Object({ ...Webhook.properties, secret: Type.String() })
export type CreatedWebhook = Static<typeof CreatedWebhook>

export const WebhookParams = Type.Object({ webhook_id: Id })

export const WebhookDelivery = Type.Object({
  id: Id,
  /** One of the webhook events, or `test`. */
  event: Type.String(),
  /** `pending` (waiting for its next try), `delivered` (a 2xx answer), `failed` (no try left). */
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer({ minimum: 0 }),
  last_status_code: Type.Union([Type.Integer(), Type.Null()]),
  last_error: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  delivered_at: Type.Union([Timestamp, Type.Null()]),
})
export type WebhookDelivery = Static<typeof WebhookDelivery>

export const WebhookDeliveriesQuery = Type.Object({ limit: Type.Optional(Limit), offset: Type.Optional(Offset) })
export type WebhookDeliveriesQuery = Static<typeof WebhookDeliveriesQuery>
