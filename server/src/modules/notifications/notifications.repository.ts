import type { Insertable } from 'kysely'
import type { EmailPreference, Notification } from '@stake/contract'
import type { Executor } from '../../db/types.ts'
import type { NotificationsTable } from './notifications.tables.ts'

const SHOWN = ['id', 'kind', 'proposal_id', 'text', 'created_at', 'read_at'] as const

export async function insertNotifications(db: Executor, rows: Insertable<NotificationsTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('notifications').values(rows).execute()
}

/** The user's inbox, newest first, with the total of the filter and the unread count. */
export async function listNotifications(
  db: Executor,
  userId: number,
  unreadOnly: boolean,
  limit: number,
  offset: number,
): Promise<{ rows: Notification[]; total: number; unread: number }> {
  const mine = db.selectFrom('notifications').where('user_id', '=', userId)
  const filtered = unreadOnly ? mine.where('read_at', 'is', null) : mine
  const rows = await filtered.select(SHOWN).orderBy('id', 'desc').limit(limit).offset(offset).execute()
  const counts = await mine
    .select((eb) => [
      eb.fn.countAll<number | string>().as('total'),
      eb.fn.count<number | string>('id').filterWhere('read_at', 'is', null).as('unread'),
    ])
    .executeTakeFirstOrThrow()
  const unread = Number(counts.unread)
  return { rows, total: unreadOnly ? unread : Number(counts.total), unread }
}

/** Marks one of the user's notifications read (kept as first read); false when it is not the user's. */
export async function markRead(db: Executor, userId: number, id: number, at: string): Promise<boolean> {
  const found = await db
    .selectFrom('notifications')
    .select(['id', 'read_at'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!found) return false
  if (found.read_at === null) {
    await db
      .updateTable('notifications')
      .set({ read_at: at })
      .where('id', '=', id)
      .where('read_at', 'is', null)
      .execute()
  }
  return true
}

export async function markAllRead(db: Executor, userId: number, at: string): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ read_at: at })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .execute()
}

export async function findPreference(db: Executor, userId: number): Promise<EmailPreference> {
  const row = await db
    .selectFrom('notification_preferences')
    .select('email')
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row?.email ?? 'immediate'
}

export async function savePreference(db: Executor, userId: number, email: EmailPreference, at: string) {
  await db
    .insertInto('notification_preferences')
    .values({ user_id: userId, email, updated_at: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ email, updated_at: at }))
    .execute()
}
