/** Webhook names as plain data (no schema code), for the server and the web client alike. */

/**
 * What a webhook can subscribe to (docs/decisions.md "Webhooks"):
 * - `proposal_created`: a proposal was submitted (at `sp_approval`, or `interview` for a release);
 * - `stage_changed`: it moved to another open stage or to `done` (votes, manager moves, interview completed);
 * - `declined`: it was declined (never also `stage_changed`);
 * - `interview_assigned`: an interviewer was assigned or replaced;
 * - `comment`: someone commented (the text is never sent).
 * The test delivery of POST /webhooks/{id}/test has the event `test`.
 */
export const WEBHOOK_EVENTS = [
  'proposal_created',
  'stage_changed',
  'declined',
  'interview_assigned',
  'comment',
] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

export const WEBHOOK_FORMATS = ['json', 'slack', 'discord'] as const
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number]

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number]
