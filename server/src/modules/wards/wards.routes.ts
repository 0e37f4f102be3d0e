import { Type } from 'typebox'
import { ErrorBody, Id, Ward, WardBody } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { type FastifyTypebox, noContent } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { WardsService } from './wards.service.ts'

const WardParams = Type.Object({ ward_id: Id })
const tags = ['wards']

/** Wards (docs/api-reference.md §6): public reads, writes with wards.manage. */
export default async function wardsRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new WardsService(ctx)

  app.get(
    '/',
    {
      config: { auth: 'public' },
      schema: {
        operationId: 'listWards',
        tags,
        summary: 'List wards (by id); bishop_id only for signed-in callers',
        response: { 200: Type.Array(Ward) },
      },
    },
    async (request) => service.list(request.actor === null),
  )

  app.get(
    '/:ward_id',
    {
      config: { auth: 'public' },
      schema: {
        operationId: 'getWard',
        tags,
        summary: 'Get a ward; bishop_id only for signed-in callers',
        params: WardParams,
        response: { 200: Ward },
      },
    },
    async (request) => service.get(request.params.ward_id, request.actor === null),
  )

  app.post(
    '/',
    {
      config: { permission: 'wards.manage' },
      schema: {
        operationId: 'createWard',
        tags,
        summary: "Create a ward and its Bishop slot; bishop_id seats a bishop (needs the Bishop calling's permissions)",
        body: WardBody,
        response: { 201: Ward, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(requireActor(request), request.body)),
  )

  app.put(
    '/:ward_id',
    {
      config: { permission: 'wards.manage' },
      schema: {
        operationId: 'updateWard',
        tags,
        summary: 'Update a ward; bishop_id fills, replaces or (null) releases its Bishop slot, omitted leaves it',
        params: WardParams,
        body: WardBody,
        response: { 200: Ward, 409: ErrorBody },
      },
    },
    async (request) => service.update(requireActor(request), request.params.ward_id, request.body),
  )

  app.delete(
    '/:ward_id',
    {
      config: { permission: 'wards.manage' },
      schema: {
        operationId: 'deleteWard',
        tags,
        summary: 'Delete a ward and its Bishop slot (409 in_use while proposals or speaking overrides refer to it)',
        params: WardParams,
        response: { 204: Type.Null(), 409: ErrorBody },
      },
    },
    async (request, reply) => noContent(reply, service.remove(requireActor(request), request.params.ward_id)),
  )
}
