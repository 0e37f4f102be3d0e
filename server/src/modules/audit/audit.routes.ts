import { Type } from 'typebox'
import { AUDIT_ACTIONS, AuditEntry, AuditListQuery } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { sendPage, type FastifyTypebox } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { AuditService } from './audit.service.ts'

const DESCRIPTION = [
  'Who changed what, and when (docs/api-reference.md §13): newest first, total in X-Total-Count.',
  '`action=user.create` matches one action; `action=user.` (trailing dot) every action of the group.',
  '`from`/`to` (inclusive) take a date, a whole day in STAKE_TIMEZONE, or an RFC 3339 date-time.',
  'Entries are kept AUDIT_RETENTION_DAYS (default 730). `actor_id` is null for failed sign-ins and reused',
  'refresh tokens. Without proposals.manage, proposal entries show no names, votes or reasons (S9).',
  '',
  `Actions: ${AUDIT_ACTIONS.map((a) => `\`${a}\``).join(', ')}.`,
].join('\n')

export default async function auditRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new AuditService(ctx)

  app.get(
    '/',
    {
      config: { permission: 'users.manage' },
      schema: {
        operationId: 'listAuditEntries',
        tags: ['audit'],
        summary: 'The audit log (users.manage)',
        description: DESCRIPTION,
        querystring: AuditListQuery,
        response: { 200: Type.Array(AuditEntry) },
      },
    },
    async (request, reply) => sendPage(reply, await service.list(requireActor(request), request.query)),
  )
}
