import type { Generated } from 'kysely'

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

/** The push domain's tables, composed into `DB` by db/schema.ts. */
export interface PushTables {
  push_subscriptions: PushSubscriptionsTable
  push_outbox: PushOutboxTable
}
