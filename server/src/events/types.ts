import type { AnonymousActor, AuditAction, AuditTargetType, Stage } from '@stake/contract'
import type { AppContext } from '../context.ts'
import type { Executor } from '../db/types.ts'

/** Who made the change and when: `by` is null for what nobody signed in did (a failed sign-in). */
export interface Who {
  by: number | null
  at: string
  /** With `by` null: who acted without an account (a booking link), named in the audit entry. */
  anonymous?: AnonymousActor
}

/** The row a change is about, by id. */
export interface AuditTarget {
  type: AuditTargetType
  id: number
}

export type Fact = string | number | boolean | null | Fact[] | { [key: string]: Fact }
/** Plain facts an event carries and its audit entry keeps: JSON values, never a row or a secret. */
export type AuditDetail = Record<string, Fact>

/** A change whose only trace is its audit entry: the kind is the entry's action. */
export interface Audited {
  kind: Exclude<AuditAction, 'proposal.create' | 'proposal.stage' | 'proposal.decline'>
  target: AuditTarget | null
  detail?: AuditDetail
}

/** What happened, once, as the change that did it says (docs/api-reference.md §13, ARCHITECTURE.md). */
export type DomainEvent = Who &
  (
    | Audited
    | { kind: 'proposal.create'; proposalId: number; detail: AuditDetail }
    /** Any stage change (advance, revert, a named step, decline, votes, interview, presentations). */
    | { kind: 'proposal.move'; proposalId: number; from: Stage; to: Stage; note?: string | null }
    | { kind: 'interview.assign'; proposalId: number; interviewerId: number }
    | { kind: 'comment.create'; proposalId: number }
    /** Voters still missing at the current stage; an automatic reminder reaches each once per visit to it. */
    | { kind: 'proposal.remind'; proposalId: number; automatic: boolean }
  )

/** What subscribers need beyond the transaction. */
export type EventDeps = Pick<AppContext, 'config' | 'dialect'>

/** Turns an event into its effects inside the event's transaction. */
export type Subscriber = (trx: Executor, deps: EventDeps, event: DomainEvent) => Promise<void>

/** An event whose only effect is its audit entry: what `audit(trx, who, action, target, detail)` was. */
export const audited = (
  who: Who,
  kind: Audited['kind'],
  target: AuditTarget | null,
  detail?: AuditDetail,
): DomainEvent => (detail === undefined ? { ...who, kind, target } : { ...who, kind, target, detail })
