import type { Executor } from '../../db/types.ts'
import type { DomainEvent, EventDeps } from '../../events/types.ts'
import { proposalFacts, proposalTarget } from '../proposals/proposals.audit.ts'
import { audit } from './audit.repository.ts'

/** The audit subscriber: one entry per event, except those that only notify (an interview, a comment, a reminder). */
export async function auditTrail(trx: Executor, _deps: EventDeps, event: DomainEvent): Promise<void> {
  switch (event.kind) {
    case 'interview.assign':
    case 'comment.create':
    case 'proposal.remind':
      return
    case 'proposal.create':
      return audit(trx, event, 'proposal.create', proposalTarget(event.proposalId), event.detail)
    case 'proposal.move': {
      const facts = { ...(await proposalFacts(trx, event.proposalId)), from: event.from }
      return event.to === 'declined'
        ? audit(trx, event, 'proposal.decline', proposalTarget(event.proposalId), {
            ...facts,
            reason: event.note ?? null,
          })
        : audit(trx, event, 'proposal.stage', proposalTarget(event.proposalId), { ...facts, to: event.to })
    }
    default:
      return audit(trx, event, event.kind, event.target, event.detail)
  }
}
