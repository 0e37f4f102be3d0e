import { Type } from 'typebox'
import { Approval, ErrorBody, ProposalParams, VoteQuery } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { FastifyTypebox } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { VotesService } from './votes.service.ts'

const tags = ['calling-kanban']

export default async function votesRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new VotesService(ctx)

  app.post(
    '/proposals/:proposal_id/approvals',
    {
      schema: {
        operationId: 'castVote',
        tags,
        summary:
          "Cast or change the caller's vote at the current stage (presidency at sp_approval, high councilors at hc_approval); 201 first vote, 200 changed",
        params: ProposalParams,
        querystring: VoteQuery,
        response: { 200: Approval, 201: Approval, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { vote, created } = await service.vote(
        requireActor(request),
        request.params.proposal_id,
        request.query.approved,
      )
      return reply.status(created ? 201 : 200).send(vote)
    },
  )

  app.get(
    '/proposals/:proposal_id/approvals',
    {
      schema: {
        operationId: 'listVotes',
        tags,
        summary: 'Every vote on a proposal, at every stage (stake-wide viewers only)',
        params: ProposalParams,
        response: { 200: Type.Array(Approval) },
      },
    },
    async (request) => service.list(requireActor(request), request.params.proposal_id),
  )
}
