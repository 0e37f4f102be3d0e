import { Sunday, SundayAssignmentsInput, SundayPlan, SundayPlanParams } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { FastifyTypebox } from '../../http.ts'
import { SundayPlanService } from './sunday-plan.service.ts'

const tags = ['sunday-plan']

/** docs/api-reference.md §18: the stake's Sunday plan. */
export default async function sundayPlanRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new SundayPlanService(ctx)

  app.get(
    '/:year',
    {
      schema: {
        tags,
        operationId: 'getSundayPlan',
        summary: "The year's Sundays: presidency assignments, the high council's speakers, and double assignments",
        params: SundayPlanParams,
        response: { 200: SundayPlan },
      },
    },
    async (request) => service.year(request.params.year),
  )

  app.put(
    '/assignments',
    {
      config: { permission: 'speaking.manage' },
      schema: {
        tags,
        operationId: 'setSundayAssignments',
        summary: "Replace one Sunday's assignments; the answer lists anyone in two places at once",
        body: SundayAssignmentsInput,
        response: { 200: Sunday },
      },
    },
    async (request) => service.replace(request.body),
  )
}
