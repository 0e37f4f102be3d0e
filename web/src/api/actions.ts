import { useQuery, type QueryClient } from '@tanstack/react-query'
import { api } from './client'
import type { Actions } from './types'

/** Query keys of the action queue (GET /actions, docs/api-reference.md §11). */
export const actionKeys = {
  all: ['actions'] as const,
}

/**
 * What awaits the signed-in user. Computed live by the server, so it is
 * refetched when the window regains focus and once a minute: a proposal
 * reaching the caller's stage shows without a reload.
 */
export function useActions() {
  return useQuery({ ...actionsQuery, refetchOnWindowFocus: true, refetchInterval: 60_000 })
}

const actionsQuery = { queryKey: actionKeys.all, queryFn: () => api<Actions>('/actions') }

/** Puts the queue that came with the page load's refresh (session.ts, `include=actions`) in the cache. */
export function seedActions(qc: QueryClient, actions: Actions): void {
  qc.setQueryData(actionKeys.all, actions)
}

/**
 * Starts the queue's request at once, beside the board's: a phone opens the
 * board at the first stage holding something for the caller, so the board
 * waits for it (useBoardTab).
 */
export function prefetchActions(qc: QueryClient): void {
  void qc.prefetchQuery(actionsQuery)
}
