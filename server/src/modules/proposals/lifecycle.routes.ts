import { Type } from 'typebox'
import { DeclineBody, ErrorBody, HistoryEntry, MoveQuery, Proposal, ProposalParams, StepQuery } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { FastifyTypebox } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { LifecycleService, type NamedStep } from './lifecycle.service.ts'

const tags = ['calling-kanban']

/** Manager moves along a proposal's path, and its history (docs/api-reference.md §7). */
export default async function lifecycleRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new LifecycleService(ctx)

  for (const direction of ['advance', 'revert'] as const) {
    app.post(
      `/proposals/:proposal_id/${direction}`,
      {
        config: { permission: 'proposals.manage' },
        schema: {
          operationId: `${direction}Proposal`,
          tags,
          summary: `${direction === 'advance' ? 'Advance' : 'Revert'} one stage along the proposal's path (409 stale_stage when from_stage is not current)`,
          params: ProposalParams,
          querystring: MoveQuery,
          response: { 200: Proposal, 409: ErrorBody },
        },
      },
      async (request) =>
        service.move(
          requireActor(request),
          request.params.proposal_id,
          direction,
          request.query.from_stage,
          request.query.waive === true,
        ),
    )
  }

  const steps: { path: string; step: NamedStep; operationId: string; summary: string }[] = [
    {
      path: 'sustain',
      step: 'sustain',
      operationId: 'recordSustaining',
      summary: 'Record the sustaining (at sustain; 409 wrong_stage elsewhere)',
    },
    {
      path: 'set-apart',
      step: 'set_apart',
      operationId: 'recordSettingApart',
      summary: 'Record the setting apart (at set_apart; 409 wrong_stage elsewhere)',
    },
    {
      path: 'ordain',
      step: 'ordain',
      operationId: 'recordOrdination',
      summary: 'Record the ordination (an ordination at ordain; 409 wrong_stage elsewhere)',
    },
    {
      path: 'record',
      step: 'record',
      operationId: 'recordCompletion',
      summary: 'Record the call, release or ordination as done (at record; 409 wrong_stage elsewhere)',
    },
  ]
  for (const { path, step, operationId, summary } of steps) {
    app.post(
      `/proposals/:proposal_id/${path}`,
      {
        config: { permission: 'proposals.manage' },
        schema: {
          operationId,
          tags,
          summary,
          params: ProposalParams,
          ...(step === 'sustain' ? {} : { querystring: StepQuery }),
          response: { 200: Proposal, 409: ErrorBody },
        },
      },
      async (request) =>
        service.step(
          requireActor(request),
          request.params.proposal_id,
          step,
          (request.query as { date?: string } | undefined)?.date,
        ),
    )
  }

  app.post(
    '/proposals/:proposal_id/decline',
    {
      config: { permission: 'proposals.manage' },
      schema: {
        operationId: 'declineProposal',
        tags,
        summary: 'Decline an open proposal; the reason goes into the history',
        params: ProposalParams,
        body: DeclineBody,
        response: { 200: Proposal, 409: ErrorBody },
      },
    },
    async (request) => service.decline(requireActor(request), request.params.proposal_id, request.body.reason),
  )

  app.get(
    '/proposals/:proposal_id/history',
    {
      schema: {
        operationId: 'getProposalHistory',
        tags,
        summary: 'Every stage change of a proposal, oldest first',
        params: ProposalParams,
        response: { 200: Type.Array(HistoryEntry) },
      },
    },
    async (request) => service.history(requireActor(request), request.params.proposal_id),
  )
}
