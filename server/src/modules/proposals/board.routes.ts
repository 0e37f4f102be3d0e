import { Type } from 'typebox'
import { ClosedPageQuery, CompactBoard, CompactCard } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { sendWithEtag } from '../../etag.ts'
import { sendPage, type FastifyTypebox } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { BoardService } from './board.service.ts'

const tags = ['calling-kanban']

/** The compact board and its closed column (docs/api-reference.md §7, "Compact board"). */
export default async function boardRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new BoardService(ctx)

  app.get(
    '/board/compact',
    {
      schema: {
        operationId: 'getCompactBoard',
        tags,
        summary:
          'Open proposals as compact cards and the last 30 days’ closed ones as counts; ETag, If-None-Match → 304',
        response: { 200: CompactBoard, 304: Type.Null() },
      },
    },
    async (request, reply) => sendWithEtag(request, reply, await service.compact(requireActor(request))),
  )

  app.get(
    '/board/closed',
    {
      schema: {
        operationId: 'listClosedBoardCards',
        tags,
        summary: 'The closed column (done or declined in the last 30 days), most recent first; total in X-Total-Count',
        querystring: ClosedPageQuery,
        response: { 200: Type.Array(CompactCard) },
      },
    },
    async (request, reply) => sendPage(reply, await service.closedPage(requireActor(request), request.query)),
  )
}
