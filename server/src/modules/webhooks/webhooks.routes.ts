import { Type } from 'typebox'
import {
  CreatedWebhook,
  Webhook,
  WebhookBody,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookParams,
} from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { type FastifyTypebox, noContent, sendPage } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { WebhooksService } from './webhooks.service.ts'

const tags = ['webhooks']
const config = { permission: 'proposals.manage' as const }

/** Webhooks (docs/api-reference.md §11): all for proposals.manage. */
export default async function webhooksRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new WebhooksService(ctx)

  app.get(
    '/',
    {
      config,
      schema: {
        operationId: 'listWebhooks',
        tags,
        summary: 'Every webhook (never its secret)',
        response: { 200: Type.Array(Webhook) },
      },
    },
    async () => service.list(),
  )

  app.post(
    '/',
    {
      config,
      schema: {
        operationId: 'createWebhook',
        tags,
        summary:
          'Create a webhook; the answer carries its signing secret, shown this once. Events: ' +
          'proposal_created, stage_changed, declined, interview_assigned, comment',
        body: WebhookBody,
        response: { 201: CreatedWebhook },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(requireActor(request), request.body)),
  )

  app.put(
    '/:webhook_id',
    {
      config,
      schema: {
        operationId: 'updateWebhook',
        tags,
        summary: 'Change a webhook (url, events, format, include_names); the secret stays',
        params: WebhookParams,
        body: WebhookBody,
        response: { 200: Webhook },
      },
    },
    async (request) => service.update(requireActor(request), request.params.webhook_id, request.body),
  )

  app.delete(
    '/:webhook_id',
    {
      config,
      schema: {
        operationId: 'deleteWebhook',
        tags,
        summary: 'Delete a webhook and its delivery log',
        params: WebhookParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => noContent(reply, service.remove(requireActor(request), request.params.webhook_id)),
  )

  app.post(
    '/:webhook_id/test',
    {
      config,
      schema: {
        operationId: 'testWebhook',
        tags,
        summary: 'Send a test delivery now; answers with its log entry (retried on the usual schedule if it failed)',
        params: WebhookParams,
        response: { 200: WebhookDelivery },
      },
    },
    async (request) => service.test(request.params.webhook_id),
  )

  app.get(
    '/:webhook_id/deliveries',
    {
      config,
      schema: {
        operationId: 'listWebhookDeliveries',
        tags,
        summary: 'The delivery log of a webhook, newest first (total in X-Total-Count)',
        params: WebhookParams,
        querystring: WebhookDeliveriesQuery,
        response: { 200: Type.Array(WebhookDelivery) },
      },
    },
    async (request, reply) => sendPage(reply, await service.deliveries(request.params.webhook_id, request.query)),
  )
}
