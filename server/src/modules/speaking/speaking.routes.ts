import { Type } from 'typebox'
import {
  SpeakingCalendar,
  SpeakingMonthParams,
  SpeakingOverrideBody,
  SpeakingOverrideQuery,
  SpeakingTopic,
  SpeakingTopicBody,
  SpeakingYearParams,
} from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { type FastifyTypebox, noContent } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import feedRoutes from './feed.routes.ts'
import { SpeakingService } from './speaking.service.ts'

const tags = ['speaking']

/** docs/api-reference.md §8: the high council's speaking schedule. */
export default async function speakingRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new SpeakingService(ctx)

  app.get(
    '/calendar',
    {
      schema: {
        operationId: 'getSpeakingCalendar',
        tags,
        summary: 'The speaking calendar of the current year (UTC): every seat, every month, with the month’s topic',
        response: { 200: SpeakingCalendar },
      },
    },
    async (request) => service.calendar(requireActor(request), service.currentYear()),
  )

  app.get(
    '/calendar/:year',
    {
      schema: {
        operationId: 'getSpeakingCalendarOfYear',
        tags,
        summary: 'The speaking calendar of a year: the rotation with its overrides, and the months’ topics',
        params: SpeakingYearParams,
        response: { 200: SpeakingCalendar },
      },
    },
    async (request) => service.calendar(requireActor(request), request.params.year),
  )

  app.put(
    '/calendar/override',
    {
      config: { permission: 'speaking.manage' },
      schema: {
        operationId: 'setSpeakingOverride',
        tags,
        summary: 'Set a high councilor’s ward for a month (null = not speaking); the seat that had that ward swaps',
        body: SpeakingOverrideBody,
        response: { 200: SpeakingCalendar },
      },
    },
    async (request) => service.override(requireActor(request), request.body),
  )

  app.delete(
    '/calendar/override',
    {
      config: { permission: 'speaking.manage' },
      schema: {
        operationId: 'deleteSpeakingOverride',
        tags,
        summary: 'Return a high councilor’s month to the rotation (undoing both halves of a swap)',
        querystring: SpeakingOverrideQuery,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => noContent(reply, service.restore(requireActor(request), request.query)),
  )

  app.get(
    '/topics/:year',
    {
      schema: {
        operationId: 'listSpeakingTopics',
        tags,
        summary: 'The monthly topics of a year (months without one are left out)',
        params: SpeakingYearParams,
        response: { 200: Type.Array(SpeakingTopic) },
      },
    },
    async (request) => service.topics(requireActor(request), request.params.year),
  )

  app.put(
    '/topics/:year/:month',
    {
      config: { permission: 'speaking.manage' },
      schema: {
        operationId: 'setSpeakingTopic',
        tags,
        summary: 'Set or replace a month’s topic',
        params: SpeakingMonthParams,
        body: SpeakingTopicBody,
        response: { 200: SpeakingTopic },
      },
    },
    async (request) => service.setTopic(requireActor(request), request.params.year, request.params.month, request.body),
  )

  app.delete(
    '/topics/:year/:month',
    {
      config: { permission: 'speaking.manage' },
      schema: {
        operationId: 'deleteSpeakingTopic',
        tags,
        summary: 'Remove a month’s topic',
        params: SpeakingMonthParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) =>
      noContent(reply, service.deleteTopic(requireActor(request), request.params.year, request.params.month)),
  )

  await feedRoutes(app, ctx)
}
