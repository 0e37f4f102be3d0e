import type {
  Notification,
  NotificationListQuery,
  NotificationPreferences,
  OutboxEntry,
  OutboxQuery,
} from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { retrying } from '../../db/transaction.ts'
import { notFound } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import * as repo from './notifications.repository.ts'
import { listOutbox } from './outbox.repository.ts'

/** The caller's own inbox and mail preference (docs/api-reference.md §11); nobody reads another's. */
export class NotificationsService {
  constructor(private readonly ctx: AppContext) {}

  list(actor: Actor, query: NotificationListQuery): Promise<{ rows: Notification[]; total: number; unread: number }> {
    const { unread = false, limit = 50, offset = 0 } = query
    return repo.listNotifications(this.ctx.db, actor.id, unread, limit, offset)
  }

  /** Another user's notification is 404, as an absent one. */
  async read(actor: Actor, id: number): Promise<void> {
    const at = this.ctx.clock.iso()
    if (!(await retrying(() => repo.markRead(this.ctx.db, actor.id, id, at)))) throw notFound('Notification')
  }

  async readAll(actor: Actor): Promise<void> {
    const at = this.ctx.clock.iso()
    await retrying(() => repo.markAllRead(this.ctx.db, actor.id, at))
  }

  async preferences(actor: Actor): Promise<NotificationPreferences> {
    return { email: await repo.findPreference(this.ctx.db, actor.id) }
  }

  async savePreferences(actor: Actor, body: NotificationPreferences): Promise<NotificationPreferences> {
    const at = this.ctx.clock.iso()
    await retrying(() => repo.savePreference(this.ctx.db, actor.id, body.email, at))
    return { email: body.email }
  }

  /** GET /outbox (users.manage, checked by the route): the mail queue without bodies. */
  outbox(query: OutboxQuery): Promise<{ rows: OutboxEntry[]; total: number }> {
    const { status, limit = 50, offset = 0 } = query
    return listOutbox(this.ctx.db, status, limit, offset)
  }
}
