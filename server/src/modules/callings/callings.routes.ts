import { Type } from 'typebox'
import {
  Calling,
  CallingHistoryEntry,
  CallingListQuery,
  CallingSlot,
  CreateCallingBody,
  ErrorBody,
  FillSlotBody,
  Id,
  PermissionsBody,
  UpdateCallingBody,
} from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { type FastifyTypebox, noContent, sendPage } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { CallingsService } from './callings.service.ts'
import { SlotsService } from './slots.service.ts'

const CallingParams = Type.Object({ calling_id: Id })
const SlotParams = Type.Object({ calling_id: Id, slot_id: Id })
const tags = ['callings']

/** Callings and their slots (docs/api-reference.md §5); access follows the calling (docs/api-reference.md §4). */
export default async function callingsRoutes(app: FastifyTypebox, ctx: AppContext) {
  const callings = new CallingsService(ctx)
  const slots = new SlotsService(ctx)

  app.post(
    '/',
    {
      config: { permission: 'callings.manage' },
      schema: {
        operationId: 'createCalling',
        tags,
        summary: 'Create a calling (only with permissions you hold yourself)',
        body: CreateCallingBody,
        response: { 201: Calling, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.status(201).send(await callings.create(requireActor(request), request.body)),
  )

  app.get(
    '/',
    {
      config: { auth: 'optional' },
      schema: {
        operationId: 'listCallings',
        tags,
        summary:
          'List callings; anonymous callers get public callings with holders as names only. Total in X-Total-Count',
        querystring: CallingListQuery,
        response: { 200: Type.Array(Calling) },
      },
    },
    async (request, reply) => sendPage(reply, await callings.list(request.actor, request.query)),
  )

  app.get(
    '/:calling_id',
    {
      config: { auth: 'optional' },
      schema: {
        operationId: 'getCalling',
        tags,
        summary: 'Get a calling (a private calling is 404 for anonymous callers)',
        params: CallingParams,
        response: { 200: Calling },
      },
    },
    async (request) => callings.get(request.actor, request.params.calling_id),
  )

  app.put(
    '/:calling_id',
    {
      config: { permission: 'callings.manage' },
      schema: {
        operationId: 'updateCalling',
        tags,
        summary: 'Update a user-made calling (system-defined: 403 system_defined; a filled slot above max_slots: 409)',
        params: CallingParams,
        body: UpdateCallingBody,
        response: { 200: Calling, 409: ErrorBody },
      },
    },
    async (request) => callings.update(requireActor(request), request.params.calling_id, request.body),
  )

  app.delete(
    '/:calling_id',
    {
      config: { permission: 'callings.manage' },
      schema: {
        operationId: 'deleteCalling',
        tags,
        summary: 'Delete a user-made calling with no filled slot',
        params: CallingParams,
        response: { 204: Type.Null(), 409: ErrorBody },
      },
    },
    async (request, reply) => noContent(reply, callings.remove(requireActor(request), request.params.calling_id)),
  )

  app.get(
    '/:calling_id/history',
    {
      schema: {
        operationId: 'getCallingHistory',
        tags,
        summary: 'Who held which slot of the calling, from when to when (oldest first)',
        params: CallingParams,
        response: { 200: Type.Array(CallingHistoryEntry) },
      },
    },
    async (request) => slots.history(requireActor(request), request.params.calling_id),
  )

  app.get(
    '/:calling_id/permissions',
    {
      config: { auth: 'optional' },
      schema: {
        operationId: 'getCallingPermissions',
        tags,
        summary: 'Permissions the calling grants its holders',
        params: CallingParams,
        response: { 200: PermissionsBody },
      },
    },
    async (request) => callings.getPermissions(request.actor, request.params.calling_id),
  )

  app.put(
    '/:calling_id/permissions',
    {
      config: { permission: 'callings.manage' },
      schema: {
        operationId: 'setCallingPermissions',
        tags,
        summary: 'Replace the grants of a user-made calling (only permissions you hold)',
        params: CallingParams,
        body: PermissionsBody,
        response: { 200: PermissionsBody, 409: ErrorBody },
      },
    },
    async (request) =>
      callings.setPermissions(requireActor(request), request.params.calling_id, request.body.permissions),
  )

  app.get(
    '/:calling_id/:slot_id',
    {
      config: { auth: 'optional' },
      schema: {
        operationId: 'getSlot',
        tags,
        summary: 'Get a slot',
        params: SlotParams,
        response: { 200: CallingSlot },
      },
    },
    async (request) => slots.get(request.actor, request.params.calling_id, request.params.slot_id),
  )

  app.put(
    '/:calling_id/:slot_id',
    {
      config: { permission: 'callings.manage' },
      schema: {
        operationId: 'fillSlot',
        tags,
        summary: 'Fill an empty slot (filled: 409 slot_filled; you must hold every permission the calling grants)',
        params: SlotParams,
        body: FillSlotBody,
        response: { 200: CallingSlot, 409: ErrorBody },
      },
    },
    async (request) =>
      slots.fill(requireActor(request), request.params.calling_id, request.params.slot_id, request.body.user_id),
  )

  app.delete(
    '/:calling_id/:slot_id',
    {
      config: { permission: 'callings.manage' },
      schema: {
        operationId: 'releaseSlot',
        tags,
        summary: 'Release a slot (the holding is kept in the history)',
        params: SlotParams,
        response: { 204: Type.Null(), 409: ErrorBody },
      },
    },
    async (request, reply) =>
      noContent(reply, slots.release(requireActor(request), request.params.calling_id, request.params.slot_id)),
  )
}
