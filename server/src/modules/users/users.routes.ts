import { Type } from 'typebox'
import {
  ChangePasswordBody,
  CreatedUser,
  CreateUserBody,
  Id,
  PermissionsBody,
  UpdateUserBody,
  User,
  UserListQuery,
  UserSummary,
} from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { sendPage, type FastifyTypebox } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { UsersService } from './users.service.ts'

const UserParams = Type.Object({ id: Id })
const tags = ['users']

export default async function usersRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new UsersService(ctx)

  app.post(
    '/',
    {
      config: { permission: 'users.manage' },
      schema: {
        operationId: 'createUser',
        tags,
        summary: 'Create a user (a temporary password is generated when none is given)',
        body: CreateUserBody,
        response: { 201: CreatedUser },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.create(requireActor(request), request.body, `${request.protocol}://${request.host}`)),
  )

  app.get(
    '/',
    {
      schema: {
        operationId: 'listUsers',
        tags,
        summary: 'List users (names only without users.manage); total in X-Total-Count',
        querystring: UserListQuery,
        response: { 200: Type.Array(Type.Union([User, UserSummary])) },
      },
    },
    async (request, reply) => sendPage(reply, await service.list(requireActor(request), request.query)),
  )

  app.get(
    '/:id',
    {
      schema: {
        operationId: 'getUser',
        tags,
        summary: 'Get a user (self or users.manage)',
        params: UserParams,
        response: { 200: User },
      },
    },
    async (request) => service.get(requireActor(request), request.params.id),
  )

  app.put(
    '/:id',
    {
      schema: {
        operationId: 'updateUser',
        tags,
        summary: 'Update a user (self or users.manage; only users.manage changes active)',
        params: UserParams,
        body: UpdateUserBody,
        response: { 200: User },
      },
    },
    async (request) => service.update(requireActor(request), request.params.id, request.body),
  )

  app.patch(
    '/:id/password',
    {
      config: { passwordChangeExempt: true },
      schema: {
        operationId: 'changePassword',
        tags,
        summary: 'Change a password (self with old_password, or users.manage for another user)',
        params: UserParams,
        body: ChangePasswordBody,
        response: { 200: User },
      },
    },
    async (request) =>
      service.changePassword(
        requireActor(request),
        request.params.id,
        request.body.old_password,
        request.body.new_password,
      ),
  )

  app.get(
    '/:id/permissions',
    {
      schema: {
        operationId: 'getUserPermissions',
        tags,
        summary: 'Direct permission grants of a user',
        params: UserParams,
        response: { 200: PermissionsBody },
      },
    },
    async (request) => service.getPermissions(requireActor(request), request.params.id),
  )

  app.put(
    '/:id/permissions',
    {
      config: { permission: 'users.manage' },
      schema: {
        operationId: 'setUserPermissions',
        tags,
        summary: 'Replace the direct permission grants of a user',
        params: UserParams,
        body: PermissionsBody,
        response: { 200: PermissionsBody },
      },
    },
    async (request) => service.setPermissions(requireActor(request), request.params.id, request.body.permissions),
  )
}
