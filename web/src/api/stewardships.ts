import { useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from './client'
import { useChange, type MutationCallbacks } from './mutation'
import type { Stewardship, Stewardships } from './types'

/** Query keys of the high-council stewardships (docs/api-reference.md §18). */
const stewardshipKeys = {
  all: ['stewardships'] as const,
}

export function useStewardships() {
  return useQuery({ queryKey: stewardshipKeys.all, queryFn: () => api<Stewardships>('/stewardships') })
}

export interface StewardshipVars {
  seats: { slot_id: number; ward_ids: number[]; organizations: string[] }[]
}

/** Saves the whole assignment (speaking.manage); the answer is the new one. */
export function useSaveStewardships(callbacks: MutationCallbacks<Stewardships, StewardshipVars> = {}) {
  const qc = useQueryClient()
  const { onSuccess, ...rest } = callbacks
  return useChange({
    mutationFn: (body: StewardshipVars) => api<Stewardships>('/stewardships', { method: 'PUT', body }),
    onSuccess: (data, ...args) => {
      if (data && Array.isArray(data.seats)) qc.setQueryData(stewardshipKeys.all, data)
      return onSuccess?.(data, ...args)
    },
    ...rest,
    invalidates: () => [stewardshipKeys.all],
  })
}

/** The seat that oversees a ward, if any. */
export const stewardOf = (data: Stewardships | undefined, wardId: number): Stewardship | undefined =>
  data?.seats.find((s) => s.wards.some((w) => w.id === wardId))

/** The seats a user holds (usually one). */
export const seatsOf = (data: Stewardships | undefined, userId: number): Stewardship[] =>
  (data?.seats ?? []).filter((s) => s.high_councilor?.id === userId)
