import { CompleteInterviewQuery, ErrorBody, Interview, ProposalParams, ScheduleInterviewQuery } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { FastifyTypebox } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { InterviewService } from './interview.service.ts'

const tags = ['calling-kanban']

export default async function interviewRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new InterviewService(ctx)

  app.post(
    '/proposals/:proposal_id/interview',
    {
      config: { permission: 'proposals.manage' },
      schema: {
        operationId: 'scheduleInterview',
        tags,
        summary: 'Schedule or replace the interview (at the interview stage only)',
        params: ProposalParams,
        querystring: ScheduleInterviewQuery,
        response: { 200: Interview, 409: ErrorBody },
      },
    },
    async (request) =>
      service.schedule(
        requireActor(request),
        request.params.proposal_id,
        request.query.interviewer_id,
        request.query.scheduled_for,
      ),
  )

  app.get(
    '/proposals/:proposal_id/interview',
    {
      schema: {
        operationId: 'getInterview',
        tags,
        summary: "The proposal's interview (404 if none)",
        params: ProposalParams,
        response: { 200: Interview },
      },
    },
    async (request) => service.get(requireActor(request), request.params.proposal_id),
  )

  app.post(
    '/proposals/:proposal_id/interview/complete',
    {
      schema: {
        operationId: 'completeInterview',
        tags,
        summary: 'Complete the interview (a manager or the interviewer) and move the proposal to sustain',
        params: ProposalParams,
        querystring: CompleteInterviewQuery,
        response: { 200: Interview, 409: ErrorBody },
      },
    },
    async (request) =>
      service.complete(requireActor(request), request.params.proposal_id, request.query.completion_date),
  )
}
