import { setSubscribers } from './events/record.ts'
import { auditTrail } from './modules/audit/audit.subscriber.ts'
import { notifications } from './modules/notifications/notify.ts'
import { webhookDeliveries } from './modules/webhooks/webhooks.subscriber.ts'

/**
 * The composition root of the events (ARCHITECTURE.md, "One change, one
 * event"): each module's subscriber, in the order they run. buildApp and the
 * CLI register them before anything records a change.
 */
export function registerSubscribers(): void {
  setSubscribers([auditTrail, notifications, webhookDeliveries])
}
