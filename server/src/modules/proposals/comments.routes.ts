import { Type } from 'typebox'
import { Comment, CommentBody, CommentParams, ProposalParams } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { FastifyTypebox } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { CommentsService } from './comments.service.ts'

const tags = ['calling-kanban']

export default async function commentsRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new CommentsService(ctx)

  app.post(
    '/proposals/:proposal_id/comments',
    {
      schema: {
        operationId: 'createComment',
        tags,
        summary: 'Comment on a proposal the caller can see',
        params: ProposalParams,
        body: CommentBody,
        response: { 201: Comment },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(requireActor(request), request.params.proposal_id, request.body)),
  )

  app.get(
    '/proposals/:proposal_id/comments',
    {
      schema: {
        operationId: 'listComments',
        tags,
        summary: 'Comments on a proposal, oldest first',
        params: ProposalParams,
        response: { 200: Type.Array(Comment) },
      },
    },
    async (request) => service.list(requireActor(request), request.params.proposal_id),
  )

  app.put(
    '/proposals/:proposal_id/comments/:comment_id',
    {
      schema: {
        operationId: 'updateComment',
        tags,
        summary: 'Edit a comment (the author only; sets edited_at)',
        params: CommentParams,
        body: CommentBody,
        response: { 200: Comment },
      },
    },
    async (request) =>
      service.edit(requireActor(request), request.params.proposal_id, request.params.comment_id, request.body),
  )

  app.delete(
    '/proposals/:proposal_id/comments/:comment_id',
    {
      schema: {
        operationId: 'deleteComment',
        tags,
        summary: 'Delete a comment (the author or proposals.manage)',
        params: CommentParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.remove(requireActor(request), request.params.proposal_id, request.params.comment_id)
      return reply.status(204).send(null)
    },
  )
}
