import { useQuery } from '@tanstack/react-query'
import { api } from './client'
import { callingKeys } from './callings'
import { useChange, type MutationCallbacks } from './mutation'
import type { Ward } from './types'
import { wardKeys } from './wardList'

export { useWards } from './wardList'

/** A stake's wards as a visitor sees them (`stake` as usePublicCallings's). */
export function usePublicWards(stake: string | undefined, enabled = true) {
  return useQuery({
    queryKey: wardKeys.public(stake),
    queryFn: () => api<Ward[]>('/wards/', { anonymous: true, query: { stake } }),
    enabled,
  })
}

export function wardName(wards: Ward[] | undefined, id: number | null | undefined): string {
  if (id == null) return '—'
  return wards?.find((w) => w.id === id)?.name ?? `Ward ${id}`
}

export interface WardBody {
  name: string
  start_time: number | null
  bishop_id: number | null
  speaking_sunday: number
}

/** Create (no id) or update a ward; callings show ward names and bishops, so they are refetched too. */
export function useSaveWard() {
  return useChange({
    mutationFn: ({ id, body }: { id?: number; body: WardBody }) =>
      id === undefined ? api('/wards/', { method: 'POST', body }) : api(`/wards/${id}`, { method: 'PUT', body }),
    invalidates: () => [wardKeys.all, callingKeys.all],
  })
}

export function useDeleteWard(callbacks: MutationCallbacks<unknown, Ward> = {}) {
  return useChange({
    mutationFn: (w: Ward) => api(`/wards/${w.id}`, { method: 'DELETE' }),
    ...callbacks,
    invalidates: () => [wardKeys.all],
  })
}
