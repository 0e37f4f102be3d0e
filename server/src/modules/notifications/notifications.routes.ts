import { Type } from 'typebox'
import {
  ErrorBody,
  Notification,
  NotificationListQuery,
  NotificationParams,
  NotificationPreferences,
  OutboxEntry,
  OutboxQuery,
  ProposalParams,
  Reminded,
} from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { type FastifyTypebox, noContent, sendPage } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { NotificationsService } from './notifications.service.ts'
import { RemindersService } from './reminders.service.ts'

const tags = ['notifications']

/** The inbox, mail preference, outbox and reminders (docs/api-reference.md §11). */
export default async function notificationsRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new NotificationsService(ctx)
  const reminders = new RemindersService(ctx)

  app.get(
    '/notifications',
    {
      schema: {
        operationId: 'listNotifications',
        tags,
        summary: "The caller's notifications, newest first; X-Total-Count and X-Unread-Count",
        querystring: NotificationListQuery,
        response: { 200: Type.Array(Notification) },
      },
    },
    async (request, reply) => {
      const page = await service.list(requireActor(request), request.query)
      reply.header('X-Unread-Count', String(page.unread))
      return sendPage(reply, page)
    },
  )

  app.post(
    '/notifications/read-all',
    {
      schema: {
        operationId: 'markAllNotificationsRead',
        tags,
        summary: "Mark all the caller's notifications read",
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => noContent(reply, service.readAll(requireActor(request))),
  )

  app.post(
    '/notifications/:notification_id/read',
    {
      schema: {
        operationId: 'markNotificationRead',
        tags,
        summary: "Mark one of the caller's notifications read (another's is 404)",
        params: NotificationParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => noContent(reply, service.read(requireActor(request), request.params.notification_id)),
  )

  app.get(
    '/notifications/preferences',
    {
      schema: {
        operationId: 'getNotificationPreferences',
        tags,
        summary: "The caller's email preference (immediate until chosen)",
        response: { 200: NotificationPreferences },
      },
    },
    async (request) => service.preferences(requireActor(request)),
  )

  app.put(
    '/notifications/preferences',
    {
      schema: {
        operationId: 'setNotificationPreferences',
        tags,
        summary: "Set the caller's email preference: off, immediate or a daily digest",
        body: NotificationPreferences,
        response: { 200: NotificationPreferences },
      },
    },
    async (request) => service.savePreferences(requireActor(request), request.body),
  )

  app.get(
    '/outbox',
    {
      config: { permission: 'users.manage' },
      schema: {
        operationId: 'listOutbox',
        tags,
        summary: 'Queued mail, newest first (address, subject, delivery state; never the body); X-Total-Count',
        querystring: OutboxQuery,
        response: { 200: Type.Array(OutboxEntry) },
      },
    },
    async (request, reply) => sendPage(reply, await service.outbox(request.query)),
  )

  app.post(
    '/calling-kanban/proposals/:proposal_id/remind',
    {
      config: { permission: 'proposals.manage' },
      schema: {
        operationId: 'remindVoters',
        tags: ['calling-kanban'],
        summary: 'Remind the voters of the current stage who have not voted (at most once an hour)',
        params: ProposalParams,
        response: { 200: Reminded, 409: ErrorBody, 429: ErrorBody },
      },
    },
    async (request) => reminders.remind(requireActor(request), request.params.proposal_id),
  )
}
