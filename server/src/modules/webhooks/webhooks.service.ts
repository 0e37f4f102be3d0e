import type { CreatedWebhook, Webhook, WebhookBody, WebhookDelivery, WebhookDeliveriesQuery } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { AppError, notFound, ValidationFailure } from '../../errors.ts'
import { withTransaction } from '../../db/transaction.ts'
import { audited, record } from '../../events/record.ts'
import type { Actor } from '../../actor.ts'
import { urlProblem } from './address.ts'
import { newSecret } from './payload.ts'
import * as repo from './webhooks.repository.ts'
import { WebhookWorker } from './webhooks.worker.ts'

const webhookNotFound = () => notFound('Webhook')

/** A webhook's audit entry (S12): its address and what it sends, never its secret. */
const facts = (id: number, fields: repo.WebhookFields, events: string[]) => ({
  target: { type: 'webhook' as const, id },
  detail: { url: fields.url, format: fields.format, include_names: fields.include_names, events },
})

/**
 * Webhooks (docs/api-reference.md §11). Every route requires proposals.manage (the routes
 * declare it), and a manager sees every webhook: they are the stake's, not
 * their creator's.
 */
export class WebhooksService {
  private readonly worker: WebhookWorker

  constructor(private readonly ctx: AppContext) {
    this.worker = new WebhookWorker(ctx)
  }

  /** The URL must be http(s) and, unless WEBHOOK_ALLOW_PRIVATE, reach only public addresses on allowed ports (422). */
  private async fieldsOf(body: WebhookBody): Promise<repo.WebhookFields & { events: string[] }> {
    const url = body.url.trim()
    const { webhookAllowPrivate: allowPrivate, webhookPorts: ports } = this.ctx.config
    const problem = await urlProblem(url, { allowPrivate, ports })
    if (problem) throw new ValidationFailure([{ loc: ['body', 'url'], ...problem }])
    return {
      url,
      format: body.format ?? 'json',
      include_names: body.include_names ?? false,
      events: [...new Set(body.events)].sort(),
    }
  }

  async list(): Promise<Webhook[]> {
    const rows = await repo.listWebhookRows(this.ctx.db)
    const events = await repo.eventsOf(
      this.ctx.db,
      rows.map((r) => r.id),
    )
    return rows.map((row) => repo.toWebhook(row, events.get(row.id) ?? []))
  }

  private async one(id: number): Promise<Webhook> {
    const row = await repo.findWebhook(this.ctx.db, id)
    if (!row) throw webhookNotFound()
    const events = await repo.eventsOf(this.ctx.db, [id])
    return repo.toWebhook(row, events.get(id) ?? [])
  }

  /** The secret is in this answer only; afterwards it is used to sign, never shown. */
  async create(actor: Actor, body: WebhookBody): Promise<CreatedWebhook> {
    const { events, ...fields } = await this.fieldsOf(body)
    const secret = newSecret()
    const now = this.ctx.clock.iso()
    const id = await withTransaction(this.ctx.db, async (trx) => {
      const id = await repo.insertWebhook(trx, { ...fields, secret, created_by: actor.id }, now)
      await repo.replaceEvents(trx, id, events)
      await record(trx, this.ctx, { kind: 'webhook.create', ...facts(id, fields, events), by: actor.id, at: now })
      return id
    })
    return { ...(await this.one(id)), secret }
  }

  /** Replaces url, events, format and include_names; the secret stays. */
  async update(actor: Actor, id: number, body: WebhookBody): Promise<Webhook> {
    const { events, ...fields } = await this.fieldsOf(body)
    const now = this.ctx.clock.iso()
    await withTransaction(this.ctx.db, async (trx) => {
      if (!(await repo.updateWebhook(trx, id, fields, now))) throw webhookNotFound()
      await repo.replaceEvents(trx, id, events)
      if (!fields.include_names) await repo.forgetPendingNames(trx, id)
      await record(trx, this.ctx, { kind: 'webhook.update', ...facts(id, fields, events), by: actor.id, at: now })
    })
    return this.one(id)
  }

  async remove(actor: Actor, id: number): Promise<void> {
    await withTransaction(this.ctx.db, async (trx) => {
      const row = await repo.findWebhook(trx, id)
      if (!row || !(await repo.deleteWebhook(trx, id))) throw webhookNotFound()
      const detail = { url: row.url, include_names: Boolean(row.include_names) }
      await record(
        trx,
        this.ctx,
        audited({ by: actor.id, at: this.ctx.clock.iso() }, 'webhook.delete', { type: 'webhook', id }, detail),
      )
    })
  }

  /**
   * POST /webhooks/{id}/test: a `test` delivery, logged like any other and
   * tried at once (so the answer shows whether it arrived); a failed first
   * try is retried on the usual schedule by the worker.
   */
  async test(id: number): Promise<WebhookDelivery> {
    const now = this.ctx.clock.iso()
    const deliveryId = await withTransaction(this.ctx.db, async (trx) => {
      const row = await repo.findWebhook(trx, id)
      if (!row) throw webhookNotFound()
      // Imported without its address (docs/SECURITY.md "Exports"): nothing to send to yet.
      if (row.url === '') throw new AppError(409, 'url_required', 'Enter the webhook’s address again first')
      return repo.insertTestDelivery(trx, id, now)
    })
    await this.worker.runOne(deliveryId)
    const row = await repo.findDelivery(this.ctx.db, deliveryId)
    if (!row) throw webhookNotFound() // the webhook was deleted meanwhile
    return repo.toDelivery(row)
  }

  async deliveries(id: number, query: WebhookDeliveriesQuery): Promise<{ rows: WebhookDelivery[]; total: number }> {
    if (!(await repo.findWebhook(this.ctx.db, id))) throw webhookNotFound()
    const page = await repo.listDeliveries(this.ctx.db, id, query.limit ?? 50, query.offset ?? 0)
    return { rows: page.rows.map(repo.toDelivery), total: page.total }
  }
}
