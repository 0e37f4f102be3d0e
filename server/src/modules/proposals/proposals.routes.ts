import { Type } from 'typebox'
import {
  Board,
  BoardQuery,
  ErrorBody,
  Proposal,
  ProposalBody,
  ProposalListQuery,
  ProposalParams,
} from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { sendPage, type FastifyTypebox } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import commentsRoutes from './comments.routes.ts'
import interviewRoutes from './interview.routes.ts'
import lifecycleRoutes from './lifecycle.routes.ts'
import { ProposalsService } from './proposals.service.ts'
import votesRoutes from './votes.routes.ts'
import boardRoutes from './board.routes.ts'
import { sendWithEtag } from '../../etag.ts'

const tags = ['calling-kanban']

/** The calling-proposal tracker under /calling-kanban (docs/api-reference.md §7). */
export default async function proposalTrackerRoutes(app: FastifyTypebox, ctx: AppContext) {
  await proposalsRoutes(app, ctx)
  await lifecycleRoutes(app, ctx)
  await votesRoutes(app, ctx)
  await interviewRoutes(app, ctx)
  await commentsRoutes(app, ctx)
  await boardRoutes(app, ctx)
}

async function proposalsRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new ProposalsService(ctx)

  app.post(
    '/proposals',
    {
      config: { permission: 'proposals.submit' },
      schema: {
        operationId: 'createProposal',
        tags,
        summary: 'Submit a proposal (a bishop only for his own ward; another submitter needs proposals.manage)',
        body: ProposalBody,
        response: { 201: Proposal },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(requireActor(request), request.body)),
  )

  app.get(
    '/proposals',
    {
      schema: {
        operationId: 'listProposals',
        tags,
        summary: 'List the proposals the caller may see, newest first; total in X-Total-Count',
        querystring: ProposalListQuery,
        response: { 200: Type.Array(Proposal) },
      },
    },
    async (request, reply) => sendPage(reply, await service.list(requireActor(request), request.query)),
  )

  app.get(
    '/proposals/:proposal_id',
    {
      schema: {
        operationId: 'getProposal',
        tags,
        summary: 'Get a proposal',
        params: ProposalParams,
        response: { 200: Proposal },
      },
    },
    async (request) => service.get(requireActor(request), request.params.proposal_id),
  )

  app.put(
    '/proposals/:proposal_id',
    {
      schema: {
        operationId: 'updateProposal',
        tags,
        summary: 'Edit a proposal (the submitter while open, or proposals.manage); keeps the stage',
        params: ProposalParams,
        body: ProposalBody,
        response: { 200: Proposal },
      },
    },
    async (request) => service.update(requireActor(request), request.params.proposal_id, request.body),
  )

  app.delete(
    '/proposals/:proposal_id',
    {
      config: { permission: 'proposals.manage' },
      schema: {
        operationId: 'deleteProposal',
        tags,
        summary: 'Delete a proposal with its comments, votes, interview and history (not once done)',
        params: ProposalParams,
        response: { 204: Type.Null(), 409: ErrorBody },
      },
    },
    async (request, reply) => {
      await service.remove(requireActor(request), request.params.proposal_id)
      return reply.status(204).send(null)
    },
  )

  app.get(
    '/board',
    {
      schema: {
        operationId: 'getBoard',
        tags,
        summary:
          'Open proposals by stage (every stage present) and those closed in the last 30 days; ?kind= keeps one kind; ETag → 304',
        querystring: BoardQuery,
        response: { 200: Board, 304: Type.Null() },
      },
    },
    async (request, reply) => sendWithEtag(request, reply, await service.board(requireActor(request), request.query)),
  )
}
