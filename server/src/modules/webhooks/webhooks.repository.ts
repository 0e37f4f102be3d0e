import { sql, type Selectable } from 'kysely'
import type { Webhook, WebhookDelivery, WebhookEvent, WebhookFormat } from '@stake/contract'
import type { Executor } from '../../db/types.ts'
import type { WebhookDeliveriesTable, WebhooksTable } from './webhooks.tables.ts'

export type WebhookRow = Selectable<WebhooksTable>
export type DeliveryRow = Selectable<WebhookDeliveriesTable>

export interface WebhookFields {
  url: string
  format: WebhookFormat
  include_names: boolean
}

/** The API shape; the secret is never part of it (only the 201 of POST adds it). */
export function toWebhook(row: WebhookRow, events: string[]): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: events as WebhookEvent[],
    format: row.format,
    include_names: Boolean(row.include_names),
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    created_at: row.created_at,
    delivered_at: row.delivered_at,
  }
}

export async function insertWebhook(
  db: Executor,
  fields: WebhookFields & { secret: string; created_by: number },
  now: string,
): Promise<number> {
  const row = await db
    .insertInto('webhooks')
    .values({ ...fields, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function replaceEvents(db: Executor, webhookId: number, events: readonly string[]): Promise<void> {
  await db.deleteFrom('webhook_events').where('webhook_id', '=', webhookId).execute()
  await db
    .insertInto('webhook_events')
    .values(events.map((event) => ({ webhook_id: webhookId, event })))
    .execute()
}

export const findWebhook = (db: Executor, id: number) =>
  db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst()

export async function eventsOf(db: Executor, ids: number[]): Promise<Map<number, string[]>> {
  const byId = new Map<number, string[]>(ids.map((id) => [id, []]))
  if (ids.length === 0) return byId
  const rows = await db
    .selectFrom('webhook_events')
    .select(['webhook_id', 'event'])
    .where('webhook_id', 'in', ids)
    .orderBy('event')
    .execute()
  for (const row of rows) byId.get(row.webhook_id)?.push(row.event)
  return byId
}

export const listWebhookRows = (db: Executor) => db.selectFrom('webhooks').selectAll().orderBy('id').execute()

export async function updateWebhook(db: Executor, id: number, fields: WebhookFields, now: string): Promise<boolean> {
  const result = await db
    .updateTable('webhooks')
    .set({ ...fields, updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

export async function deleteWebhook(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

/** include_names turned off: deliveries still waiting no longer carry the names either. */
export async function forgetPendingNames(db: Executor, webhookId: number): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ fname: null, lname: null })
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'pending')
    .execute()
}

/**
 * One delivery per webhook subscribed to `event`, with the proposal's facts
 * as they are now in the caller's transaction, in one INSERT ... SELECT
 * (docs/api-reference.md §11: written with the change, or not at all). Names are copied
 * only for webhooks that include them; the spouse never.
 */
export async function enqueueWebhooks(
  db: Executor,
  event: WebhookEvent,
  proposalId: number,
  at: string,
): Promise<void> {
  await db
    .insertInto('webhook_deliveries')
    .columns([
      'webhook_id',
      'event',
      'at',
      'proposal_id',
      'proposed_calling',
      'ward_id',
      'ward_name',
      'stage',
      'kind',
      'office',
      'fname',
      'lname',
      'status',
      'attempts',
      'next_attempt_at',
      'created_at',
    ])
    .expression(
      db
        .selectFrom('webhook_events as e')
        .innerJoin('webhooks as w', 'w.id', 'e.webhook_id')
        .innerJoin('proposals as p', (join) => join.on('p.id', '=', proposalId))
        .innerJoin('wards as wd', 'wd.id', 'p.ward_id')
        .where('e.event', '=', event)
        // An imported webhook has no address until it is entered again: it sends nothing.
        .where('w.url', '<>', '')
        .select([
          'w.id',
          sql<string>`${event}`.as('event'),
          sql<string>`${at}`.as('at'),
          'p.id as proposal_id',
          'p.proposed_calling',
          'p.ward_id',
          'wd.name as ward_name',
          'p.stage',
          'p.kind',
          'p.office',
          sql<string | null>`CASE WHEN w.include_names THEN p.fname ELSE NULL END`.as('fname'),
          sql<string | null>`CASE WHEN w.include_names THEN p.lname ELSE NULL END`.as('lname'),
          sql.lit('pending').as('status'),
          sql.lit(0).as('attempts'),
          sql<string>`${at}`.as('next_attempt_at'),
          sql<string>`${at}`.as('created_at'),
        ]),
    )
    .execute()
}

export async function insertTestDelivery(db: Executor, webhookId: number, at: string): Promise<number> {
  const row = await db
    .insertInto('webhook_deliveries')
    .values({
      webhook_id: webhookId,
      event: 'test',
      at,
      proposal_id: null,
      proposed_calling: null,
      ward_id: null,
      ward_name: null,
      stage: null,
      fname: null,
      lname: null,
      status: 'pending',
      next_attempt_at: at,
      last_status_code: null,
      last_error: null,
      created_at: at,
      delivered_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** Whether any delivery is due: a read, so an idle worker never takes a write lock. */
export async function anyDue(db: Executor, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/** Forgets finished deliveries created before `before` (the log's retention). */
export async function purgeFinished(db: Executor, before: string): Promise<number> {
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('status', 'in', ['delivered', 'failed'])
    .where('created_at', '<', before)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

export const findDelivery = (db: Executor, id: number) =>
  db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst()

export async function listDeliveries(
  db: Executor,
  webhookId: number,
  limit: number,
  offset: number,
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute()
  const { total } = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .where('webhook_id', '=', webhookId)
    .executeTakeFirstOrThrow()
  return { rows, total: Number(total) }
}
