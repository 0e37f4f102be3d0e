import { ErrorBody, Stake, StakeBody, StakeSetup } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { FastifyTypebox } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { StakeSettingsService } from './stakes.settings.ts'
import { stakeSetup } from './stakes.setup.ts'

const tags = ['stake']

/** The caller's stake and its settings (docs/api-reference.md §14). */
export default async function stakeRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new StakeSettingsService(ctx)

  app.get(
    '/',
    {
      schema: {
        operationId: 'getStake',
        tags,
        summary: "The caller's stake and its settings (any signed-in user)",
        response: { 200: Stake },
      },
    },
    async () => service.get(),
  )

  app.get(
    '/setup',
    {
      schema: {
        operationId: 'getStakeSetup',
        tags,
        summary:
          "Which of the stake's first steps are done (holders of wards.manage, callings.manage, users.manage and proposals.submit)",
        response: { 200: StakeSetup, 403: ErrorBody },
      },
    },
    async (request) => stakeSetup(ctx, requireActor(request)),
  )

  app.put(
    '/',
    {
      schema: {
        operationId: 'updateStake',
        tags,
        summary:
          "Change the stake's settings (holders of all seven permissions); 409 seats_filled below the highest filled High Councilor seat",
        body: StakeBody,
        response: { 200: Stake, 409: ErrorBody },
      },
    },
    async (request) => service.update(requireActor(request), request.body),
  )
}
