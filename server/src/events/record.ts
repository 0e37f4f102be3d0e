import type { Executor } from '../db/types.ts'
import { auditTrail } from '../modules/audit/audit.facts.ts'
import { notifications } from '../modules/notifications/notify.ts'
import { settleOwedWork } from '../modules/notifications/settle.ts'
import { webhookDeliveries } from '../modules/webhooks/webhooks.repository.ts'
import type { DomainEvent, EventDeps, Subscriber } from './types.ts'

export { audited } from './types.ts'

/** Every event goes to each of these, in this order, in the change's own transaction. */
const SUBSCRIBERS: readonly Subscriber[] = [auditTrail, settleOwedWork, notifications, webhookDeliveries]

/**
 * Records what a change did, once, inside its transaction: the audit entry,
 * the notifications (and their mail) and the webhook deliveries commit or
 * roll back with the change. Returns the users notified.
 */
export async function record(trx: Executor, deps: EventDeps, event: DomainEvent): Promise<number[]> {
  const notified: number[] = []
  for (const subscriber of SUBSCRIBERS) notified.push(...((await subscriber(trx, deps, event)) ?? []))
  return notified
}
