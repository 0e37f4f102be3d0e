import { Type } from 'typebox'
import { ErrorBody } from '@stake/contract'
import { unavailable } from '../../errors.ts'
import { whyNotWritable } from './readiness.ts'
import type { AppContext } from '../../context.ts'
import type { FastifyTypebox } from '../../http.ts'

export default async function opsRoutes(app: FastifyTypebox, ctx: AppContext) {
  app.get(
    '/health',
    {
      config: { auth: 'public' },
      schema: {
        operationId: 'getHealth',
        tags: ['operations'],
        summary: 'Liveness',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  )

  app.get(
    '/ready',
    {
      config: { auth: 'public' },
      schema: {
        operationId: 'getReadiness',
        tags: ['operations'],
        summary: 'Readiness: 200 when the database can take a write and the instance is not shutting down, else 503',
        response: { 200: Type.Object({ status: Type.Literal('ready') }), 503: ErrorBody },
      },
    },
    async (request) => {
      if (app.lifecycle.draining) throw unavailable('The service is shutting down')
      let reason: string | null
      try {
        reason = await whyNotWritable(ctx.db, ctx.dialect)
      } catch (error) {
        request.log.warn({ err: error }, 'not ready: the database failed the write probe')
        throw unavailable('Database unavailable')
      }
      if (reason) {
        request.log.warn({ reason }, 'not ready')
        throw unavailable('Database unavailable')
      }
      return { status: 'ready' as const }
    },
  )
}
