import { setSubscribers } from './events/record.ts'
import { auditTrail } from './modules/audit/audit.subscriber.ts'
import { notifications } from './modules/notifications/notify.ts'
import { settleOwedWork } from './modules/notifications/settle.ts'
import { webhookDeliveries } from './modules/webhooks/webhooks.subscriber.ts'

/**
 * The composition root of the events (ARCHITECTURE.md, "One change, one
 * event"): each module's subscriber, in the order they run. buildApp and the
 * CLI register them before anything records a change.
 */
export function registerSubscribers(): void {
  // Work no longer owed is settled before the new notifications are written.
  setSubscribers([auditTrail, settleOwedWork, notifications, webhookDeliveries])
}
