import { Type } from 'typebox'
import { SpeakingFeed, SpeakingFeedParams, SpeakingFeedStatus } from '@stake/contract'
import type { FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.ts'
import { type FastifyTypebox, noContent } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { FeedService, feedUrl } from './feed.service.ts'

const tags = ['speaking']

/** docs/api-reference.md §13: the speaking calendar as a subscribable iCalendar feed (registered by speaking.routes.ts). */
export default async function feedRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new FeedService(ctx)
  const base = (request: FastifyRequest) => ctx.config.publicUrl ?? `${request.protocol}://${request.host}`

  app.get(
    '/feed',
    {
      schema: {
        tags,
        summary: 'Whether you have a calendar feed address, and since when (the address itself is shown only once)',
        operationId: 'getCalendarFeedStatus',
        response: { 200: SpeakingFeedStatus },
      },
    },
    async (request) => service.status(requireActor(request)),
  )

  app.post(
    '/feed',
    {
      schema: {
        operationId: 'createCalendarFeed',
        tags,
        summary: 'Create (or rotate) your secret calendar feed address; the previous address stops working',
        response: { 200: SpeakingFeed },
      },
    },
    async (request) => ({ url: feedUrl(base(request), await service.create(requireActor(request))) }),
  )

  app.delete(
    '/feed',
    {
      schema: {
        operationId: 'revokeCalendarFeed',
        tags,
        summary: 'Revoke your calendar feed address',
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => noContent(reply, service.revoke(requireActor(request))),
  )

  app.get(
    '/feed/:file',
    {
      // The path is the credential: no sign-in, and never logged as it is.
      config: { auth: 'public', secretPath: true },
      schema: {
        operationId: 'getCalendarFeed',
        tags,
        summary: 'The iCalendar feed `{token}.ics` (no sign-in; unknown or revoked → 404)',
        params: SpeakingFeedParams,
        response: { 200: { content: { 'text/calendar': { schema: Type.String() } } } },
      },
    },
    async (request, reply) => {
      const text = await service.render(request.params.file)
      return reply
        .type('text/calendar; charset=utf-8')
        .header('Content-Disposition', 'inline; filename="speaking.ics"')
        .header('Cache-Control', 'private, no-cache')
        .send(text)
    },
  )
}
