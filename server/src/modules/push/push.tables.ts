import type { Generated } from 'kysely'
import { outboxTable, stakeTable, type RowsOf } from '../../db/table.ts'

/** Table types of Web Push (migration 20261129060100_push_subscriptions). */
export interface PushSubscriptionsTable {
  stake_id: Generated<number>
  id: Generated<number>
  user_id: number
  /** The device's address at its push service (a capability URL: never logged). */
  endpoint: string
  /** The device's P-256 public key and authentication secret (base64url), for RFC 8291. */
  p256dh: string
  auth: string
  label: string
  created_at: string
}

export interface PushOutboxTable {
  stake_id: Generated<number>
  id: Generated<number>
  subscription_id: number
  /** JSON: {title, body, url, tag}; in the recipient's language. */
  payload: string
  status: 'pending' | 'sent' | 'failed'
  attempts: Generated<number>
  next_attempt_at: string
  last_error: string | null
  created_at: string
  sent_at: string | null
}

/** The push domain's tables (db/table.ts). */
export const pushTables = {
  push_subscriptions: stakeTable<PushSubscriptionsTable>({
    transfer: { never: 'credentials (a device’s push address and keys)' },
  }),
  push_outbox: outboxTable<PushOutboxTable>({
    transfer: { never: 'a transient queue for those devices' },
    outbox: { sent: 'sent', sentAt: 'sent_at' },
  }),
}
export type PushTables = RowsOf<typeof pushTables>
