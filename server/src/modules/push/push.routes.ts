import { Type } from 'typebox'
import { PushDevice, PushDeviceBody, PushDeviceParams, PushKey, PushTestResult } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { type FastifyTypebox, noContent } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { PushService } from './push.service.ts'

const tags = ['notifications']

/** Web Push (docs/api-reference.md §11): the signed-in user's devices, mounted at /notifications/push. */
export default async function pushRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new PushService(ctx)

  app.get(
    '/key',
    {
      schema: {
        operationId: 'getPushKey',
        tags,
        summary: "The server's VAPID public key (base64url), the browser's applicationServerKey",
        response: { 200: PushKey },
      },
    },
    async () => service.key(),
  )

  app.get(
    '/devices',
    {
      schema: {
        operationId: 'listPushDevices',
        tags,
        summary: "The caller's devices that receive push notifications",
        response: { 200: Type.Array(PushDevice) },
      },
    },
    async (request) => service.list(requireActor(request)),
  )

  app.post(
    '/devices',
    {
      schema: {
        operationId: 'savePushDevice',
        tags,
        summary:
          "Receive push notifications on this device (the browser's PushSubscription); the same endpoint again updates it",
        body: PushDeviceBody,
        response: { 201: PushDevice },
      },
    },
    async (request, reply) => reply.status(201).send(await service.save(requireActor(request), request.body)),
  )

  app.delete(
    '/devices/:subscription_id',
    {
      schema: {
        operationId: 'deletePushDevice',
        tags,
        summary: 'Stop push notifications to one of your devices',
        params: PushDeviceParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => noContent(reply, service.remove(requireActor(request), request.params.subscription_id)),
  )

  app.post(
    '/devices/:subscription_id/test',
    {
      schema: {
        operationId: 'testPushDevice',
        tags,
        summary: 'Send a test push to one of your devices now',
        params: PushDeviceParams,
        response: { 200: PushTestResult },
      },
    },
    async (request) => service.test(requireActor(request), request.params.subscription_id),
  )
}
