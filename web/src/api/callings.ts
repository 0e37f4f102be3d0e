import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, apiPage } from './client'
import { useChange, type MutationCallbacks } from './mutation'
import type { Calling, CallingHistoryRow } from './types'

/** Query keys of the callings; everything starts with `['callings']`. */
export const callingKeys = {
  all: ['callings'] as const,
  lists: () => [...callingKeys.all, 'list'] as const,
  list: (filters: object) => [...callingKeys.lists(), filters] as const,
  /** The first 200 by name: what a proposal or a release can be linked to. */
  options: () => [...callingKeys.all, 'options'] as const,
  /** What a visitor sees of a stake (asked without a token; `stake`: its id or slug, none: the default stake). */
  public: (stake = '') => [...callingKeys.all, 'public', stake] as const,
  details: () => [...callingKeys.all, 'detail'] as const,
  detail: (id: number) => [...callingKeys.details(), id] as const,
  history: (id: number) => [...callingKeys.detail(id), 'history'] as const,
}

export interface CallingFilters {
  q: string
  system_defined?: boolean
  is_public?: boolean
  vacant?: boolean
  sort: string
  limit: number
  offset: number
}

export function useCallings(filters: CallingFilters) {
  return useQuery({
    queryKey: callingKeys.list(filters),
    queryFn: () => apiPage<Calling>('/callings/', { query: { ...filters } }),
    placeholderData: keepPreviousData,
  })
}

/** A stake's public callings (`stake`: its id or slug; none: the deployment's default); `enabled` false waits. */
export function usePublicCallings(stake: string | undefined, enabled = true) {
  return useQuery({
    queryKey: callingKeys.public(stake),
    queryFn: () => api<Calling[]>('/callings/', { anonymous: true, query: { limit: 200, sort: 'name', stake } }),
    enabled,
  })
}

/** Callings to link a proposal or a release to (the first 200 by name). */
export function useCallingOptions() {
  return useQuery({
    queryKey: callingKeys.options(),
    queryFn: async () => (await apiPage<Calling>('/callings/', { query: { limit: 200, sort: 'name' } })).items,
    staleTime: 60_000,
  })
}

export function useCalling(id: number) {
  return useQuery({ queryKey: callingKeys.detail(id), queryFn: () => api<Calling>(`/callings/${id}`) })
}

export function useCallingHistory(id: number) {
  return useQuery({
    queryKey: callingKeys.history(id),
    queryFn: () => api<CallingHistoryRow[]>(`/callings/${id}/history`),
  })
}

/** The fields of a calling's form (POST and PUT /callings/). */
export interface CallingBody {
  name: string
  is_public: boolean
  max_slots: number
  permissions: string[]
}

export function useCreateCalling() {
  return useChange({
    mutationFn: (body: CallingBody) => api<Calling>('/callings/', { method: 'POST', body }),
    invalidates: () => [callingKeys.all],
  })
}

export function useUpdateCalling(id: number) {
  const qc = useQueryClient()
  return useChange({
    mutationFn: (body: CallingBody) => api<Calling>(`/callings/${id}`, { method: 'PUT', body }),
    onSuccess: (updated) => {
      if (updated && typeof updated === 'object' && 'id' in updated) qc.setQueryData(callingKeys.detail(id), updated)
    },
    invalidates: () => [callingKeys.all],
  })
}

export function useFillSeat(id: number, callbacks: MutationCallbacks<unknown, { slot: number; user: number }> = {}) {
  return useChange({
    mutationFn: ({ slot, user }: { slot: number; user: number }) =>
      api(`/callings/${id}/${slot}`, { method: 'PUT', body: { user_id: user } }),
    ...callbacks,
    invalidates: () => [callingKeys.all],
  })
}

export function useReleaseSeat(id: number, callbacks: MutationCallbacks<unknown, number> = {}) {
  return useChange({
    mutationFn: (slot: number) => api(`/callings/${id}/${slot}`, { method: 'DELETE' }),
    ...callbacks,
    invalidates: () => [callingKeys.all],
  })
}

export function useDeleteCalling(id: number, callbacks: MutationCallbacks<unknown, void> = {}) {
  return useChange({
    mutationFn: () => api(`/callings/${id}`, { method: 'DELETE' }),
    ...callbacks,
    invalidates: () => [callingKeys.all],
  })
}
