import { sql, type Insertable, type Selectable } from 'kysely'
import type { OutboxEntry, OutboxStatus } from '@stake/contract'
import type { Executor } from '../../db/types.ts'
import type { MailOutboxTable } from './notifications.tables.ts'

export type OutboxRow = Selectable<MailOutboxTable>

export async function insertOutbox(db: Executor, rows: Insertable<MailOutboxTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('mail_outbox').values(rows).execute()
}

/** A composed message as a new outbox row, due now (`at`). */
export function outboxRow(
  to: Pick<MailOutboxTable, 'user_id' | 'to_address' | 'kind'>,
  mail: { subject: string; text: string; html: string },
  at: string,
): Insertable<MailOutboxTable> {
  return {
    ...to,
    subject: mail.subject,
    text_body: mail.text,
    html_body: mail.html,
    next_attempt_at: at,
    claimed_until: null,
    last_error: null,
    created_at: at,
    sent_at: null,
  }
}

const toEntry = (row: OutboxRow): OutboxEntry => ({
  id: row.id,
  user_id: row.user_id,
  to: row.to_address,
  kind: row.kind,
  subject: row.subject,
  status: row.status === 'sending' ? 'pending' : row.status,
  attempts: row.attempts,
  next_attempt_at: row.status === 'pending' || row.status === 'sending' ? row.next_attempt_at : null,
  last_error: row.last_error,
  created_at: row.created_at,
  sent_at: row.sent_at,
})

/** Newest first; `pending` includes messages being sent right now. */
export async function listOutbox(
  db: Executor,
  status: OutboxStatus | undefined,
  limit: number,
  offset: number,
): Promise<{ rows: OutboxEntry[]; total: number }> {
  const statuses = status === undefined ? null : status === 'pending' ? ['pending', 'sending'] : [status]
  let query = db.selectFrom('mail_outbox')
  if (statuses) query = query.where('status', 'in', statuses as OutboxRow['status'][])
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows: rows.map(toEntry), total: Number(count.n) }
}

/** Mail that is finished (sent, or failed for good) since before `before`: `sent_at`, or its creation when it failed. */
const finishedBefore = (before: string) =>
  sql<boolean>`status in ('sent', 'failed') and coalesce(sent_at, created_at) < ${before}`

/**
 * Retention of mail (S15): a finished message's body (names, callings) is
 * emptied once it has been finished for a while; the row, which says who was
 * mailed what kind of message when, lasts as long as the audit log.
 */
export async function forgetMailBodies(db: Executor, before: string): Promise<number> {
  const result = await db
    .updateTable('mail_outbox')
    .set({ text_body: '', html_body: '' })
    .where(finishedBefore(before))
    .where((eb) => eb.or([eb('text_body', '!=', ''), eb('html_body', '!=', '')]))
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

export async function purgeFinishedMail(db: Executor, before: string): Promise<number> {
  const result = await db.deleteFrom('mail_outbox').where(finishedBefore(before)).executeTakeFirst()
  return Number(result.numDeletedRows)
}
