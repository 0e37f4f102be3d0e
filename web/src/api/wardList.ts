import { useQuery, type QueryClient } from '@tanstack/react-query'
import { api } from './client'
import type { Ward } from './types'

/**
 * The stake's wards in the query cache, apart from their changes
 * (api/wards.ts): the sign-in and boot path puts the list the refresh carried
 * here, and this module is all it pulls into that download.
 */

/** Query keys of the wards; `public` is what a visitor sees (asked without a token). */
export const wardKeys = {
  all: ['wards'] as const,
  list: () => [...wardKeys.all, 'list'] as const,
  /** What a visitor sees of a stake (`stake`: its id or slug; none: the default stake). */
  public: (stake = '') => [...wardKeys.all, 'public', stake] as const,
}

export function useWards() {
  return useQuery({ queryKey: wardKeys.list(), queryFn: () => api<Ward[]>('/wards/'), staleTime: 60_000 })
}

/** Puts the wards that came with the page load's refresh (session.ts, `include=wards`) in the cache. */
export function seedWards(qc: QueryClient, wards: Ward[]): void {
  qc.setQueryData(wardKeys.list(), wards)
}
