import type { Generated, SqlBool } from 'kysely'
import type { Stage, WebhookDeliveryStatus, WebhookFormat } from '@stake/contract'
import { outboxTable, stakeTable, type RowsOf } from '../../db/table.ts'

/** Table types of the webhooks (migration 20261125002000_webhooks). */
export interface WebhooksTable {
  stake_id: Generated<number>
  id: Generated<number>
  url: string
  format: WebhookFormat
  include_names: SqlBool
  /** The signing secret as issued (docs/SECURITY.md "Webhook secrets"); never in a response but the 201. */
  secret: string
  created_by: number | null
  created_at: string
  updated_at: string
}

export interface WebhookEventsTable {
  stake_id: Generated<number>
  webhook_id: number
  event: string
}

export interface WebhookDeliveriesTable {
  stake_id: Generated<number>
  id: Generated<number>
  webhook_id: number
  event: string
  /** When the event happened. */
  at: string
  proposal_id: number | null
  proposed_calling: string | null
  ward_id: number | null
  ward_name: string | null
  stage: Stage | null
  /** The proposal's kind and office at the event (docs/api-reference.md §18); null for a test. */
  kind: Generated<string | null>
  office: Generated<string | null>
  /** Only for webhooks with include_names at the time of the event (cleared when it is turned off). */
  fname: string | null
  lname: string | null
  status: WebhookDeliveryStatus
  attempts: Generated<number>
  /** When a worker may claim it next; while claimed, the end of the lease (delivery/outbox.ts); unused once finished. */
  next_attempt_at: string | null
  last_status_code: number | null
  last_error: string | null
  created_at: string
  delivered_at: string | null
}

/** The webhooks domain's tables (db/table.ts). */
export const webhooksTables = {
  webhooks: stakeTable<WebhooksTable>({
    transfer: {
      id: true,
      refs: { created_by: 'users' },
      omit: ['secret'],
      booleans: ['include_names'],
      orderBy: ['id'],
    },
  }),
  webhook_events: stakeTable<WebhookEventsTable>({
    transfer: { refs: { webhook_id: 'webhooks' }, orderBy: ['webhook_id', 'event'] },
  }),
  webhook_deliveries: outboxTable<WebhookDeliveriesTable>({
    transfer: {
      id: true,
      refs: { webhook_id: 'webhooks', proposal_id: 'proposals', ward_id: 'wards' },
      orderBy: ['id'],
    },
    outbox: { sent: 'delivered', sentAt: 'delivered_at' },
  }),
}
export type WebhooksTables = RowsOf<typeof webhooksTables>
