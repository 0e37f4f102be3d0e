import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { ErrorBody, Id, InvitationSent, PendingInvitation, ResetLinkSent } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { FastifyTypebox } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { InvitationsService } from './invitations.service.ts'
import { PasswordResetService } from './password-reset.service.ts'

const tags = ['users']

/** Invitations and administrators' reset links (docs/api-reference.md §16), under /users. */
export default async function inviteRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new InvitationsService(ctx)
  const resets = new PasswordResetService(ctx)
  const base = (request: FastifyRequest) => `${request.protocol}://${request.host}`

  app.get(
    '/invitations',
    {
      config: { permission: 'users.manage' },
      schema: {
        operationId: 'listPendingInvitations',
        tags,
        summary: 'Invitations sent and not accepted yet (one per user: the newest)',
        response: { 200: Type.Array(PendingInvitation) },
      },
    },
    async () => service.pending(),
  )

  app.post(
    '/:id/invite',
    {
      config: { permission: 'users.manage' },
      schema: {
        operationId: 'inviteUser',
        tags,
        summary: 'Invite a user: mail a Welcome link, or return it when mail is off (a new invitation voids the old)',
        params: Type.Object({ id: Id }),
        response: { 200: InvitationSent, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => service.invite(requireActor(request), request.params.id, base(request)),
  )

  app.post(
    '/:id/reset-link',
    {
      config: { permission: 'users.manage' },
      schema: {
        operationId: 'issueResetLink',
        tags,
        summary:
          'Reset a password by link: mail a reset link, or return it to hand over when mail is off (the old password works until it is used)',
        params: Type.Object({ id: Id }),
        response: { 200: ResetLinkSent, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => resets.issueByAdministrator(requireActor(request), request.params.id, base(request)),
  )
}
