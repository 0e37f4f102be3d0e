import type { Executor } from '../../db/types.ts'
import type { DomainEvent, EventDeps } from '../../events/types.ts'
import { proposalFacts, proposalTarget } from '../proposals/proposals.audit.ts'
import { audit, type AuditDetail } from './audit.repository.ts'

type Plain = string | number | boolean | null

/** `{field: {from, to}}` of the fields whose value differs, or null when none does (no change, no entry). */
export function fieldChanges<K extends string>(
  before: Record<K, Plain>,
  after: Record<K, Plain>,
  fields: readonly K[],
): AuditDetail | null {
  const changed = fields.filter((f) => before[f] !== after[f])
  return changed.length === 0 ? null : Object.fromEntries(changed.map((f) => [f, { from: before[f], to: after[f] }]))
}

/** What a replacement of grants added and removed, or null when nothing changed. */
export function grantChanges(before: readonly string[], after: readonly string[]): AuditDetail | null {
  const added = after.filter((p) => !before.includes(p))
  const removed = before.filter((p) => !after.includes(p))
  return added.length + removed.length === 0 ? null : { added, removed }
}

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
