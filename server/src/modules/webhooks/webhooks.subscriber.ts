import type { WebhookEvent } from '@stake/contract'
import type { Executor } from '../../db/types.ts'
import type { DomainEvent, EventDeps } from '../../events/types.ts'
import { enqueueWebhooks } from './webhooks.repository.ts'

/** The webhook subscriber: the proposal events webhooks may subscribe to become deliveries. */
export async function webhookDeliveries(trx: Executor, _deps: EventDeps, event: DomainEvent): Promise<void> {
  if (!('proposalId' in event) || event.kind === 'proposal.remind') return
  const hook: WebhookEvent | undefined =
    event.kind === 'proposal.move'
      ? event.to === 'declined'
        ? 'declined'
        : 'stage_changed'
      : {
          'proposal.create': 'proposal_created' as const,
          'interview.assign': 'interview_assigned' as const,
          'comment.create': 'comment' as const,
        }[event.kind]
  if (hook) await enqueueWebhooks(trx, hook, event.proposalId, event.at)
}
