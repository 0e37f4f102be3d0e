import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { actionKeys } from './actions'
import { api, apiPage } from './client'
import { BOARD_KEY, boardQuery, expandCard, type BoardView } from './board'
import { useChange, type MutationCallbacks } from './mutation'
import {
  nextStage,
  prevStage,
  type Comment,
  type CompactCard,
  type HistoryRow,
  type OpenStage,
  type Proposal,
  type ProposalInput,
  type Stage,
  type Vote,
} from './types'

/**
 * Query keys of the calling proposals (the board, lists, one proposal and
 * what hangs off it). Everything starts with `['proposals']`, so a change to
 * any proposal can make all of it stale at once.
 */
export const proposalKeys = {
  all: ['proposals'] as const,
  board: () => BOARD_KEY,
  /** The closed column's pages, loaded once the column is opened. */
  closed: () => [...proposalKeys.board(), 'closed'] as const,
  lists: () => [...proposalKeys.all, 'list'] as const,
  list: (filters: object) => [...proposalKeys.lists(), filters] as const,
  details: () => [...proposalKeys.all, 'detail'] as const,
  detail: (id: number) => [...proposalKeys.details(), id] as const,
  approvals: (id: number) => [...proposalKeys.detail(id), 'approvals'] as const,
  comments: (id: number) => [...proposalKeys.detail(id), 'comments'] as const,
  // The stage is part of the key so that a move refetches the timeline.
  history: (id: number, stage: Stage) => [...proposalKeys.detail(id), 'history', stage] as const,
}

/** A proposal changed: the board, every list and detail, and the action queue may all show it. */
const proposalChanged = () => [proposalKeys.all, actionKeys.all]

const path = (id: number, rest = '') => `/calling-kanban/proposals/${id}${rest}`

export type { BoardView } from './board'

export function useBoard() {
  const qc = useQueryClient()
  return useQuery(boardQuery(qc))
}

const CLOSED_PAGE = 50

/** The closed column (done or declined in the last 30 days), most recent first, a page at a time once opened. */
export function useClosedCards(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: proposalKeys.closed(),
    enabled,
    initialPageParam: 0,
    queryFn: async ({ pageParam }) => {
      const page = await apiPage<CompactCard>('/calling-kanban/board/closed', {
        query: { limit: CLOSED_PAGE, offset: pageParam },
      })
      return { ...page, items: page.items.map((card) => expandCard(card)), offset: pageParam }
    },
    getNextPageParam: (last) => {
      const next = last.offset + last.items.length
      return last.items.length > 0 && next < last.total ? next : undefined
    },
  })
}

export function useProposal(id: number) {
  return useQuery({
    queryKey: proposalKeys.detail(id),
    queryFn: () => api<Proposal>(path(id)),
    enabled: Number.isInteger(id) && id > 0,
  })
}

export function useApprovals(id: number) {
  return useQuery({ queryKey: proposalKeys.approvals(id), queryFn: () => api<Vote[]>(path(id, '/approvals')) })
}

export function useComments(id: number) {
  return useQuery({ queryKey: proposalKeys.comments(id), queryFn: () => api<Comment[]>(path(id, '/comments')) })
}

export function useProposalHistory(id: number, stage: Stage) {
  return useQuery({ queryKey: proposalKeys.history(id, stage), queryFn: () => api<HistoryRow[]>(path(id, '/history')) })
}

export interface MoveVars {
  proposal: Proposal
  direction: 'advance' | 'revert'
}

/** Where a move takes a proposal: one step along its own path. */
export function moveTarget({ proposal: p, direction }: MoveVars): Stage | null {
  return direction === 'advance' ? nextStage(p.stage, p.kind) : prevStage(p.stage, p.kind)
}

/** The board as it looks once `p` has moved to `to` (the card resets its votes). */
function boardAfterMove(board: BoardView, p: Proposal, to: Stage): BoardView {
  const stages = { ...board.stages }
  const from = p.stage as OpenStage
  stages[from] = (stages[from] ?? []).filter((x) => x.id !== p.id)
  const moved = { ...p, stage: to, approvals: { approved: 0, rejected: 0 }, my_vote: null }
  let closed = board.closed_recently
  let counts = board.closed
  if (to === 'done') {
    closed = [moved, ...closed]
    counts = { ...counts, done: counts.done + 1 }
  } else stages[to as OpenStage] = [...(stages[to as OpenStage] ?? []), moved]
  return { ...board, stages, closed_recently: closed, closed: counts }
}

/** The board's moves, run one after another (`scope`) and counted (`mutationKey`). */
const MOVES = { key: ['proposals', 'move'] as const, scope: { id: 'proposals.move' } }

/**
 * Advance or revert one step, from the stage the caller saw (a conflict is
 * 409). Optimistic: the card jumps on the board at once, and the board the
 * cache had before comes back on failure; then the server's truth is fetched.
 * `onMove` runs once the card has jumped (the board moves focus with it).
 *
 * Moves are sent one at a time: a card moved twice before the first answer
 * came asks its second step from the stage the first one reaches, which the
 * server must hold by then (sent together, the second could arrive first and
 * be refused as a conflict). The board is fetched again once the last queued
 * move has settled, so a card never jumps back to a stage it has left.
 */
export function useMoveProposal<V extends MoveVars>(
  callbacks: MutationCallbacks<Proposal, V, { before?: BoardView }> & { onMove?(vars: V, to: Stage): void } = {},
) {
  const qc = useQueryClient()
  const { onMove, onError, ...rest } = callbacks
  return useChange<Proposal, V, { before?: BoardView }>({
    mutationKey: MOVES.key,
    scope: MOVES.scope,
    mutationFn: ({ proposal: p, direction }) =>
      api<Proposal>(path(p.id, `/${direction}`), { method: 'POST', query: { from_stage: p.stage } }),
    onMutate: async (vars) => {
      const to = moveTarget(vars)
      if (!to) return {}
      await qc.cancelQueries({ queryKey: proposalKeys.board() })
      const before = qc.getQueryData<BoardView>(proposalKeys.board())
      if (before) qc.setQueryData<BoardView>(proposalKeys.board(), boardAfterMove(before, vars.proposal, to))
      onMove?.(vars, to)
      return { before }
    },
    onError: (err, vars, ctx, mctx) => {
      if (ctx?.before) qc.setQueryData(proposalKeys.board(), ctx.before)
      return onError?.(err, vars, ctx, mctx)
    },
    ...rest,
    // This move still counts as pending while it settles: more than one means another is queued behind it.
    invalidates: () => (qc.isMutating({ mutationKey: MOVES.key }) > 1 ? [] : proposalChanged()),
  })
}

export interface VoteVars {
  proposal: Proposal
  approved: boolean
}

/**
 * Approve or reject at the current voting stage. Auto-advance happens in the
 * same transaction as the vote, so the answer is the proposal as it is now
 * (null if it could not be read), to tell whether the vote moved it on.
 */
export function useVote(callbacks: MutationCallbacks<Proposal | null, VoteVars> = {}) {
  return useChange<Proposal | null, VoteVars>({
    mutationFn: async ({ proposal: p, approved }) => {
      await api(path(p.id, '/approvals'), { method: 'POST', query: { approved } })
      return api<Proposal>(path(p.id)).catch(() => null)
    },
    ...callbacks,
    invalidates: proposalChanged,
  })
}

export function useUpdateProposal(id: number) {
  const qc = useQueryClient()
  return useChange({
    mutationFn: (input: ProposalInput) => api<Proposal>(path(id), { method: 'PUT', body: input }),
    onSuccess: (updated) => qc.setQueryData(proposalKeys.detail(id), updated),
    invalidates: proposalChanged,
  })
}

export function useDeclineProposal(id: number, callbacks: MutationCallbacks<unknown, string> = {}) {
  return useChange({
    mutationFn: (reason: string) => api(path(id, '/decline'), { method: 'POST', body: { reason } }),
    ...callbacks,
    invalidates: proposalChanged,
  })
}

/** Deleting drops the proposal's own entries; the board, lists and action queue are refetched. */
export function useDeleteProposal(id: number, callbacks: MutationCallbacks<unknown, void> = {}) {
  const qc = useQueryClient()
  const { onSuccess, ...rest } = callbacks
  return useChange({
    mutationFn: () => api(path(id), { method: 'DELETE' }),
    onSuccess: (...args) => {
      qc.removeQueries({ queryKey: proposalKeys.detail(id) })
      return onSuccess?.(...args)
    },
    ...rest,
    invalidates: () => [proposalKeys.board(), proposalKeys.lists(), actionKeys.all],
  })
}

export interface InterviewVars {
  interviewer_id: number | null
  scheduled_for: string | undefined
}

export function useScheduleInterview(id: number, callbacks: MutationCallbacks<unknown, InterviewVars> = {}) {
  return useChange({
    mutationFn: (query: InterviewVars) => api(path(id, '/interview'), { method: 'POST', query: { ...query } }),
    ...callbacks,
    invalidates: proposalChanged,
  })
}

export function useCompleteInterview(id: number, callbacks: MutationCallbacks<unknown, string | undefined> = {}) {
  return useChange({
    mutationFn: (completion_date: string | undefined) =>
      api(path(id, '/interview/complete'), { method: 'POST', query: { completion_date } }),
    ...callbacks,
    invalidates: proposalChanged,
  })
}

/** The named steps that take the day they happened (docs/api-reference.md §7). */
export type DatedStep = 'set_apart' | 'ordain' | 'record'
const STEP_PATH: Record<DatedStep, string> = { set_apart: '/set-apart', ordain: '/ordain', record: '/record' }

export interface StepVars {
  step: DatedStep
  /** YYYY-MM-DD; the server takes today when omitted. */
  date?: string
}

/** Set apart, ordain or record, with the day it happened. */
export function useDatedStep(id: number, callbacks: MutationCallbacks<Proposal, StepVars> = {}) {
  return useChange({
    mutationFn: ({ step, date }: StepVars) =>
      api<Proposal>(path(id, STEP_PATH[step]), { method: 'POST', query: date ? { date } : {} }),
    ...callbacks,
    invalidates: proposalChanged,
  })
}

/** Moves on from `interview` without the scheduled interview: the history says it was not needed. */
export function useWaiveInterview(id: number, callbacks: MutationCallbacks<Proposal, void> = {}) {
  return useChange({
    mutationFn: () =>
      api<Proposal>(path(id, '/advance'), { method: 'POST', query: { from_stage: 'interview', waive: true } }),
    ...callbacks,
    invalidates: proposalChanged,
  })
}

export interface CommentVars {
  commentId?: number
  commenterId: number
  text: string
}

/** Post a comment, or edit one (with its id). */
export function useSaveComment(proposalId: number) {
  return useChange({
    mutationFn: ({ commentId, commenterId, text }: CommentVars) =>
      api(path(proposalId, commentId === undefined ? '/comments' : `/comments/${commentId}`), {
        method: commentId === undefined ? 'POST' : 'PUT',
        body: { proposal_id: proposalId, commenter_id: commenterId, comment_text: text },
      }),
    invalidates: () => [proposalKeys.comments(proposalId)],
  })
}

export function useDeleteComment(proposalId: number, callbacks: MutationCallbacks<unknown, Comment> = {}) {
  return useChange({
    mutationFn: (c: Comment) => api(path(proposalId, `/comments/${c.id}`), { method: 'DELETE' }),
    ...callbacks,
    invalidates: () => [proposalKeys.comments(proposalId)],
  })
}

/** POST /calling-kanban/proposals. */
export function useCreateProposal() {
  return useChange({
    mutationFn: (input: ProposalInput) => api<Proposal>('/calling-kanban/proposals', { method: 'POST', body: input }),
    invalidates: proposalChanged,
  })
}

/** The proposal after a one-tap vote: its stage now, to tell whether the vote moved it on (null if unreadable). */
export interface QuickVoteResult {
  stage: Stage | null
}

/**
 * One-tap approve / reject from "Needs me": the same vote as the
 * proposal page's, then the proposal read back, since an auto-advance
 * happens in the vote's own transaction; the board and the action queue are
 * refetched either way. A plain function (not a mutation) so that a vote
 * still waiting out its undo time is sent even after the page has gone.
 */
export function useQuickVote(): (id: number, approved: boolean) => Promise<QuickVoteResult> {
  const qc = useQueryClient()
  return useCallback(
    async (id: number, approved: boolean) => {
      try {
        await api(path(id, '/approvals'), { method: 'POST', query: { approved } })
        const after = await api<Proposal>(path(id)).catch(() => null)
        return { stage: after?.stage ?? null }
      } finally {
        await Promise.all(proposalChanged().map((queryKey) => qc.invalidateQueries({ queryKey })))
      }
    },
    [qc],
  )
}
