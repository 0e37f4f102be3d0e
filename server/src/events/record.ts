import type { Executor } from '../db/types.ts'
import type { DomainEvent, EventDeps, Subscriber } from './types.ts'

export { audited } from './types.ts'

/** Set by the composition root (src/subscribers.ts): the bus names no module. */
let subscribers: readonly Subscriber[] = []

/** Every event goes to each of these, in this order, in the change's own transaction. */
export function setSubscribers(list: readonly Subscriber[]): void {
  subscribers = list
}

/**
 * Records what a change did, once, inside its transaction: the audit entry,
 * the notifications (and their mail) and the webhook deliveries commit or
 * roll back with the change. With no subscriber registered it refuses rather
 * than drop the change's audit entry.
 */
export async function record(trx: Executor, deps: EventDeps, event: DomainEvent): Promise<void> {
  if (subscribers.length === 0) throw new Error('No event subscribers: call registerSubscribers() (src/subscribers.ts)')
  for (const subscriber of subscribers) await subscriber(trx, deps, event)
}
