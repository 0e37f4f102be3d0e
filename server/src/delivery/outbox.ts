import { sql, type Generated, type Kysely, type Selectable, type Updateable } from 'kysely'
import type { Dialect } from '../db/database.ts'
import type { DB } from '../db/schema.ts'
import { retrying } from '../db/transaction.ts'
import { nextAttemptAt } from './schedule.ts'

// The outboxes (mail, webhook deliveries and pushes) and the status and column
// a finished row gets when its attempt succeeded: declared with their tables.
import { OUTBOXES, type OutboxName } from '../modules/tables.ts'
export type { OutboxName }

/** The columns every outbox has, which is all this helper reads or writes. */
interface OutboxColumns {
  id: Generated<number>
  status: string
  attempts: Generated<number>
  next_attempt_at: string | null
  last_error: string | null
  created_at: string
  sent_at: string | null
}
const asOutbox = (db: Kysely<DB>) => db as unknown as Kysely<Record<OutboxName, OutboxColumns>>

/**
 * Claims up to `limit` due rows of `table` (or only the one with `onlyId`)
 * for this worker: each claim counts the attempt and moves `next_attempt_at`
 * to `leaseUntil`, so no other worker takes the row while this one sends,
 * and a worker that dies mid-send leaves it to another once the lease ends
 * (at least once; a crash still spends an attempt, so the schedule ends).
 * PostgreSQL picks the rows FOR UPDATE SKIP LOCKED, so concurrent claimers
 * take disjoint rows without waiting; SQLite runs one write at a time and
 * the UPDATE re-checks that each row is still due. One worker per attempt.
 */
export function claimDue<T extends OutboxName>(
  db: Kysely<DB>,
  dialect: Dialect,
  table: T,
  opts: { now: Date; leaseUntil: Date; limit: number; onlyId?: number },
): Promise<Selectable<DB[T]>[]> {
  const now = opts.now.toISOString()
  const outbox = asOutbox(db)
  let due = outbox
    .selectFrom(table as OutboxName)
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(opts.limit)
  if (opts.onlyId !== undefined) due = due.where('id', '=', opts.onlyId)
  if (dialect === 'postgres') due = due.forUpdate().skipLocked()
  const claim = outbox
    .updateTable(table as OutboxName)
    .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: opts.leaseUntil.toISOString() }))
    .where('id', 'in', due)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .returningAll()
  return retrying(() => claim.execute()) as Promise<Selectable<DB[T]>[]>
}

/**
 * When a failed attempt is tried again: the schedule's next time
 * (delivery/schedule.ts), but at least the schedule's gap after now, so
 * attempts that ran late (the workers were down) are not spent all at once.
 * Null when none is left.
 */
function retryAt(created: Date, attemptsMade: number, now: Date): Date | null {
  const next = nextAttemptAt(created, attemptsMade)
  if (next === null) return null
  const gap = next.getTime() - nextAttemptAt(created, attemptsMade - 1)!.getTime()
  return new Date(Math.max(next.getTime(), now.getTime() + gap))
}

/**
 * Records the outcome of a claimed attempt (`error` null: it succeeded):
 * sent, pending again at the next time of the schedule, or failed after
 * the last attempt; `extra` are the outbox's own columns. Written only while
 * the row is still the one this worker claimed (same attempt count, still
 * pending), so a worker whose lease ran out cannot overwrite a later attempt.
 */
export async function recordAttempt<T extends OutboxName>(
  db: Kysely<DB>,
  table: T,
  claimed: { id: number; attempts: number; created_at: string },
  outcome: { error: string | null; now: Date },
  extra: Updateable<DB[T]> = {},
): Promise<'sent' | 'retry' | 'failed'> {
  const next = outcome.error === null ? null : retryAt(new Date(claimed.created_at), claimed.attempts, outcome.now)
  const result = outcome.error === null ? 'sent' : next ? 'retry' : 'failed'
  const { sent, sentAt } = OUTBOXES[table]
  const update = asOutbox(db)
    .updateTable(table as OutboxName)
    .set({
      ...(extra as Updateable<OutboxColumns>),
      status: result === 'sent' ? sent : result === 'retry' ? 'pending' : 'failed',
      // A finished row keeps its last time (mail's column is NOT NULL); nothing claims it again.
      next_attempt_at: next?.toISOString() ?? sql<string>`next_attempt_at`,
      last_error: outcome.error?.slice(0, 500) ?? null,
      [sentAt as 'sent_at']: result === 'sent' ? outcome.now.toISOString() : null,
    })
    .where('id', '=', claimed.id)
    .where('attempts', '=', claimed.attempts)
    .where('status', '=', 'pending')
  await retrying(() => update.execute())
  return result
}
