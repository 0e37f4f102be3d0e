import type { Readable } from 'node:stream'
import { Type } from 'typebox'
import {
  ErrorBody,
  PresentedBody,
  Proposal,
  ProposalListQuery,
  ProposalParams,
  ScriptQuery,
  SustainingParams,
  Sustainings,
} from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { FastifyTypebox } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { SCRIPT_CSP } from './script.ts'
import { SustainingsService } from './sustainings.service.ts'

const tags = ['sustainings']

/** GET /sustainings/{ward_id} and its script (docs/api-reference.md §12). */
export default async function sustainingsRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new SustainingsService(ctx)

  app.get(
    '/:ward_id',
    {
      schema: {
        operationId: 'getSustainingList',
        tags,
        summary: "What the ward presents for sustaining now (the ward's bishop, proposals.view or proposals.manage)",
        params: SustainingParams,
        response: { 200: Sustainings },
      },
    },
    async (request) => service.list(requireActor(request), request.params.ward_id),
  )

  app.get(
    '/:ward_id/script',
    {
      schema: {
        operationId: 'getSustainingScript',
        tags,
        summary: 'The printable script to read from the pulpit (text/html): releases first, then calls',
        params: SustainingParams,
        querystring: ScriptQuery,
        produces: ['text/html'],
        response: { 200: { content: { 'text/html': { schema: Type.String() } } } },
      },
    },
    async (request, reply) => {
      const html = await service.script(requireActor(request), request.params.ward_id, request.query.lang)
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-security-policy', SCRIPT_CSP)
        .header('x-frame-options', 'SAMEORIGIN')
        .send(html)
    },
  )
}

/** POST /calling-kanban/proposals/{id}/presented and the archive CSV (docs/api-reference.md §12), under /calling-kanban. */
export async function sustainingTrackerRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new SustainingsService(ctx)

  app.post(
    '/proposals/:proposal_id/presented',
    {
      schema: {
        operationId: 'recordPresentation',
        tags: ['calling-kanban'],
        summary:
          "Record that the proposal was presented in a ward (the ward's bishop or proposals.manage); 409 wrong_stage / already_presented",
        params: ProposalParams,
        body: PresentedBody,
        response: { 200: Proposal, 409: ErrorBody },
      },
    },
    async (request) => service.present(requireActor(request), request.params.proposal_id, request.body),
  )

  app.get(
    '/proposals.csv',
    {
      schema: {
        operationId: 'exportProposalsCsv',
        tags: ['calling-kanban'],
        summary: 'Every matching proposal the caller may see as CSV (RFC 4180, header row, formula-safe cells)',
        querystring: Type.Omit(ProposalListQuery, ['limit', 'offset']),
        produces: ['text/csv'],
        // Streamed as it is read: the handler sends a stream, documented as the text it carries.
        response: { 200: { content: { 'text/csv': { schema: Type.Unsafe<Readable>(Type.String()) } } } },
      },
    },
    async (request, reply) => {
      const stream = await service.csv(requireActor(request), request.query)
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="proposals.csv"')
        .send(stream)
    },
  )
}
