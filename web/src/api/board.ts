import type { QueryClient } from '@tanstack/react-query'
import { request } from './client'
import {
  OPEN_STAGES,
  type Board,
  type CompactBoard,
  type CompactCard,
  type OpenStage,
  type PersonRef,
  type Proposal,
} from './types'

/**
 * The board's data, apart from the rest of the proposals' hooks
 * (api/proposals.ts): the sign-in and boot path (AuthProvider) starts its
 * request, and this module is all it pulls into that download.
 */

/** proposalKeys.board(): the board's query key. */
export const BOARD_KEY = ['proposals', 'board'] as const

/**
 * The board as the page uses it: the open cards by stage in the full
 * Proposal shape, `closed_recently` holding only what this client added
 * itself (a card it just moved to done), and the closed column's counts.
 */
export type BoardView = Board & { closed: CompactBoard['closed'] }

/**
 * A compact card in the full shape (the defaults the server left out, the
 * tally from the voters' ids), its interviewer named from the board's `people`.
 */
export function expandCard(card: CompactCard, people?: ReadonlyMap<number, PersonRef>): Proposal {
  const { approved_by = [], rejected_by = [], interview, approvals, ...rest } = card
  return {
    ...rest,
    spouse_name: card.spouse_name ?? null,
    is_release: card.is_release ?? false,
    kind: card.kind ?? 'call',
    office: card.office ?? null,
    // The tally alone where the voters are not the caller's to see (S9).
    approvals: approvals ?? { approved: approved_by.length, rejected: rejected_by.length },
    my_vote: card.my_vote ?? null,
    interview: interview ? named({ ...interview, proposal_id: card.id }, people?.get(interview.interviewer_id)) : null,
    scope: card.scope ?? 'ward',
    releases: card.releases ?? [],
    calling_id: card.calling_id ?? null,
    user_id: card.user_id ?? null,
    presented_in: card.presented_in ?? [],
  }
}

/** The interview with its interviewer's name, when the answer named them. */
const named = <T extends object>(interview: T, interviewer: PersonRef | undefined) =>
  interviewer ? { ...interview, interviewer } : interview

function expandBoard(compact: CompactBoard): BoardView {
  const stages = Object.fromEntries(OPEN_STAGES.map((s) => [s, [] as Proposal[]])) as Board['stages']
  const votes: Board['votes'] = []
  const person = new Map(compact.people.map((p) => [p.id, p]))
  for (const card of compact.cards) {
    stages[card.stage as OpenStage]?.push(expandCard(card, person))
    for (const voter_id of card.approved_by ?? []) votes.push({ proposal_id: card.id, voter_id, approved: true })
    for (const voter_id of card.rejected_by ?? []) votes.push({ proposal_id: card.id, voter_id, approved: false })
  }
  const voting = (stage: 'sp_approval' | 'hc_approval') => ({
    required: compact.voting[stage].required,
    voters: compact.voting[stage].voters.flatMap((id) => person.get(id) ?? []),
  })
  return {
    stages,
    closed_recently: [],
    voting: { sp_approval: voting('sp_approval'), hc_approval: voting('hc_approval') },
    votes,
    closed: compact.closed,
  }
}

/** The ETag each board in the cache came with: it goes when the board leaves the cache (sign-out, a move). */
const boardTags = new WeakMap<BoardView, string>()

/**
 * GET /board/compact, conditional on the board the cache holds: a 304 keeps
 * it (nothing the caller can see changed), so a refetch after a move, on
 * focus or on reconnect costs a few hundred bytes.
 */
async function fetchBoard(qc: QueryClient): Promise<BoardView> {
  const cached = qc.getQueryData<BoardView>(BOARD_KEY)
  const tag = cached && boardTags.get(cached)
  const res = await request<CompactBoard>('/calling-kanban/board/compact', {
    headers: tag ? { 'If-None-Match': tag } : undefined,
  })
  if (res.status === 304 && cached) return cached
  return taggedBoard(res.data, res.headers.get('ETag'))
}

/** The board as the page uses it, remembering the ETag it came with. */
function taggedBoard(compact: CompactBoard, etag: string | null | undefined): BoardView {
  const board = expandBoard(compact)
  if (etag) boardTags.set(board, etag)
  return board
}

export const boardQuery = (qc: QueryClient) => ({ queryKey: BOARD_KEY, queryFn: () => fetchBoard(qc) })

/** Puts a board that came with the page load's refresh (session.ts, `include=board`) in the cache, with its ETag. */
export function seedBoard(qc: QueryClient, compact: CompactBoard, etag: string | undefined): void {
  qc.setQueryData(BOARD_KEY, taggedBoard(compact, etag))
}

/**
 * Starts the board's request at once (a reload or a sign-in headed for the
 * board: together with the profile, not after it); the page picks it up.
 */
export function prefetchBoard(qc: QueryClient): void {
  void qc.prefetchQuery(boardQuery(qc))
}
