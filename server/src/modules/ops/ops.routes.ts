import { sql } from 'kysely'
import { Type } from 'typebox'
import type { AppContext } from '../../context.ts'
import type { FastifyTypebox } from '../../http.ts'

export default async function opsRoutes(app: FastifyTypebox, ctx: AppContext) {
  app.get(
    '/health',
    {
      config: { auth: 'public' },
      schema: { tags: ['operations'], summary: 'Liveness', response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
    },
    async () => ({ status: 'ok' as const }),
  )

  app.get(
    '/ready',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['operations'],
        summary: 'Readiness: 200 when the database answers, else 503',
        response: {
          200: Type.Object({ status: Type.Literal('ready') }),
          503: Type.Object({ detail: Type.String() }),
        },
      },
    },
    async (_request, reply) => {
      try {
        await sql`select 1`.execute(ctx.db)
        return { status: 'ready' as const }
      } catch {
        return reply.status(503).send({ detail: 'Database unavailable' })
      }
    },
  )
}
