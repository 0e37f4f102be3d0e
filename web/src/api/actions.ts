import { useQuery } from '@tanstack/react-query'
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
  return useQuery({
    queryKey: actionKeys.all,
    queryFn: () => api<Actions>('/actions'),
    refetchOnWindowFocus: true,
    refetchInterval: 60_000,
  })
}
