import { useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from './client'
import { useChange, type MutationCallbacks } from './mutation'
import type { Calendar, Topic } from './types'

/** Query keys of the speaking schedule, per year. */
export const speakingKeys = {
  all: ['speaking'] as const,
  year: (year: number) => [...speakingKeys.all, year] as const,
  calendar: (year: number) => [...speakingKeys.year(year), 'calendar'] as const,
  topics: (year: number) => [...speakingKeys.year(year), 'topics'] as const,
}

export function useCalendar(year: number) {
  return useQuery({ queryKey: speakingKeys.calendar(year), queryFn: () => api<Calendar>(`/speaking/calendar/${year}`) })
}

export function useTopics(year: number, enabled: boolean) {
  return useQuery({
    queryKey: speakingKeys.topics(year),
    queryFn: () => api<Topic[]>(`/speaking/topics/${year}`),
    enabled,
  })
}

export interface OverrideVars {
  high_councilor_id: number
  month: number
  ward_id: number | null
}

/** A swap in one cell. The answer is the whole year, so it shows at once. */
export function useOverride(year: number, callbacks: MutationCallbacks<Calendar, OverrideVars> = {}) {
  const qc = useQueryClient()
  const { onSuccess, ...rest } = callbacks
  return useChange({
    mutationFn: (v: OverrideVars) =>
      api<Calendar>('/speaking/calendar/override', { method: 'PUT', body: { ...v, year } }),
    onSuccess: (cal, ...args) => {
      if (cal && Array.isArray(cal.rows)) qc.setQueryData(speakingKeys.calendar(year), cal)
      return onSuccess?.(cal, ...args)
    },
    ...rest,
    invalidates: () => [speakingKeys.calendar(year)],
  })
}

export function useRestoreCell(
  year: number,
  callbacks: MutationCallbacks<unknown, Omit<OverrideVars, 'ward_id'>> = {},
) {
  return useChange({
    mutationFn: (v: Omit<OverrideVars, 'ward_id'>) =>
      api('/speaking/calendar/override', { method: 'DELETE', query: { ...v, year } }),
    ...callbacks,
    invalidates: () => [speakingKeys.calendar(year)],
  })
}

/** A month's topic; the calendar carries it too, so the year is refetched. */
export function useSaveTopic(
  year: number,
  month: number,
  callbacks: MutationCallbacks<unknown, { topic: string; reference: string | null }> = {},
) {
  return useChange({
    mutationFn: (body: { topic: string; reference: string | null }) =>
      api(`/speaking/topics/${year}/${month}`, { method: 'PUT', body }),
    ...callbacks,
    invalidates: () => [speakingKeys.year(year)],
  })
}

export function useDeleteTopic(year: number, month: number, callbacks: MutationCallbacks<unknown, void> = {}) {
  return useChange({
    mutationFn: () => api(`/speaking/topics/${year}/${month}`, { method: 'DELETE' }),
    ...callbacks,
    invalidates: () => [speakingKeys.year(year)],
  })
}
