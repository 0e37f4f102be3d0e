import type { PushDevice } from '@stake/contract'
import type { Selectable } from 'kysely'
import type { Executor } from '../../db/types.ts'
import type { PushOutboxTable, PushSubscriptionsTable } from './push.tables.ts'

export type SubscriptionRow = Selectable<PushSubscriptionsTable>
export type PushRow = Selectable<PushOutboxTable>

/** What a push shows: the service worker (web/src/sw.ts) reads exactly these fields. */
export interface PushPayload {
  title: string
  body: string
  /** The page the notification opens, relative to the app's origin. */
  url: string
  /** Notifications with the same tag replace each other (one per proposal). */
  tag: string
  /**
   * A vote owed (vote_needed, reminder): the notification's two buttons, in
   * the recipient's language. Tapped, the service worker opens the proposal
   * and the page casts that vote with its undo (one tap).
   */
  actions?: { action: 'approve' | 'reject'; title: string }[]
  /** The recipient's unread notifications once this one is written: the app icon's badge. */
  unread?: number
}

export const toDevice = (row: SubscriptionRow): PushDevice => ({
  id: row.id,
  label: row.label,
  endpoint: row.endpoint,
  created_at: row.created_at,
})

export const listDevices = (db: Executor, userId: number) =>
  db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', userId).orderBy('id').execute()

export const findDevice = (db: Executor, userId: number, id: number) =>
  db.selectFrom('push_subscriptions').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()

/**
 * Saves this device for the user: a new row, or the row of the same endpoint
 * updated (the browser's keys changed, or another user signed in on the
 * device: one device, one recipient). One statement, so two tabs subscribing
 * at once end with one row (the unique endpoint per stake).
 */
export async function saveDevice(
  db: Executor,
  row: { user_id: number; endpoint: string; p256dh: string; auth: string; label: string; created_at: string },
): Promise<SubscriptionRow> {
  return db
    .insertInto('push_subscriptions')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['stake_id', 'endpoint']).doUpdateSet({
        user_id: row.user_id,
        p256dh: row.p256dh,
        auth: row.auth,
        label: row.label,
        created_at: row.created_at,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function deleteDevice(db: Executor, userId: number, id: number): Promise<boolean> {
  const res = await db
    .deleteFrom('push_subscriptions')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return Number(res.numDeletedRows) > 0
}

/** A device the push service no longer knows (404/410): gone with its pending pushes. */
export async function forgetDevice(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('push_outbox').where('subscription_id', '=', id).execute()
  await db.deleteFrom('push_subscriptions').where('id', '=', id).execute()
}

/**
 * Every device of a user, with what waits for them (S18): push ends with the
 * account's trust — sign out everywhere, a password change or reset, an
 * administrator's reset, a deactivation.
 */
export async function forgetUserDevices(db: Executor, userId: number): Promise<void> {
  const devices = db.selectFrom('push_subscriptions').select('id').where('user_id', '=', userId)
  await db.deleteFrom('push_outbox').where('subscription_id', 'in', devices).execute()
  await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).execute()
}

/** Each user's unread notifications (one grouped query), for the badge a push sets. */
export async function unreadCounts(db: Executor, userIds: number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('notifications')
    .select((eb) => ['user_id', eb.fn.countAll<number | string>().as('n')])
    .where('user_id', 'in', userIds)
    .where('read_at', 'is', null)
    .groupBy('user_id')
    .execute()
  return new Map(rows.map((r) => [r.user_id, Number(r.n)]))
}

/** Queues one push per device of each recipient (in the caller's transaction). */
export async function queuePushes(
  db: Executor,
  items: { user_id: number; payload: PushPayload }[],
  at: string,
): Promise<number> {
  if (items.length === 0) return 0
  const devices = await db
    .selectFrom('push_subscriptions')
    .select(['id', 'user_id'])
    .where(
      'user_id',
      'in',
      items.map((i) => i.user_id),
    )
    .execute()
  if (devices.length === 0) return 0
  const payloadOf = new Map(items.map((i) => [i.user_id, JSON.stringify(i.payload)]))
  await db
    .insertInto('push_outbox')
    .values(
      devices.map((d) => ({
        subscription_id: d.id,
        payload: payloadOf.get(d.user_id)!,
        status: 'pending' as const,
        next_attempt_at: at,
        last_error: null,
        created_at: at,
        sent_at: null,
      })),
    )
    .execute()
  return devices.length
}

/** Sent and failed pushes older than `before` (housekeeping: nothing is kept longer than needed). */
export async function purgeFinishedPushes(db: Executor, before: string): Promise<number> {
  const res = await db
    .deleteFrom('push_outbox')
    .where('status', 'in', ['sent', 'failed'])
    .where('created_at', '<', before)
    .executeTakeFirst()
  return Number(res.numDeletedRows)
}

/** Queues one push to one device (the profile's test push); returns its id. */
export async function queueOne(
  db: Executor,
  subscriptionId: number,
  payload: PushPayload,
  at: string,
): Promise<number> {
  const row = await db
    .insertInto('push_outbox')
    .values({
      subscription_id: subscriptionId,
      payload: JSON.stringify(payload),
      status: 'pending',
      next_attempt_at: at,
      last_error: null,
      created_at: at,
      sent_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}
