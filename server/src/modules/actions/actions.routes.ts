import { Actions } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { FastifyTypebox } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { ActionsService } from './actions.service.ts'

const tags = ['actions']

/** GET /actions (docs/api-reference.md §11): any signed-in user, about himself. */
export default async function actionsRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new ActionsService(ctx)

  app.get(
    '/',
    {
      schema: {
        operationId: 'listActions',
        tags,
        summary:
          'What awaits the caller: votes, interviews and, for managers, interviewer assignments and steps; oldest first',
        response: { 200: Actions },
      },
    },
    async (request) => service.list(requireActor(request)),
  )
}
