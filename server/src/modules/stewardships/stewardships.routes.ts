import { ErrorBody, Stewardships, StewardshipsBody } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { FastifyTypebox } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { StewardshipsService } from './stewardships.service.ts'

const tags = ['stewardships']

/** docs/api-reference.md §18: each high councilor's wards and stake organizations. */
export default async function stewardshipsRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new StewardshipsService(ctx)

  app.get(
    '/',
    {
      schema: {
        operationId: 'getStewardships',
        tags,
        summary: 'Every high-council seat with its holder, wards and stake organizations (anyone signed in)',
        response: { 200: Stewardships },
      },
    },
    async (request) => {
      requireActor(request)
      return service.get()
    },
  )

  app.put(
    '/',
    {
      config: { permission: 'speaking.manage' },
      schema: {
        operationId: 'putStewardships',
        tags,
        summary: 'Replace the stewardships: each seat’s wards and organizations (a ward has one steward)',
        body: StewardshipsBody,
        response: { 200: Stewardships, 409: ErrorBody },
      },
    },
    async (request) => service.put(requireActor(request), request.body),
  )
}
