import { useQuery } from '@tanstack/react-query'
import { api } from './client'
import { useChange, type MutationCallbacks } from './mutation'
import type { Session } from './types'

/** Query keys of the signed-in user's sessions (devices). */
const sessionKeys = {
  all: ['sessions'] as const,
}

export function useSessions() {
  return useQuery({ queryKey: sessionKeys.all, queryFn: () => api<Session[]>('/auth/sessions') })
}

export function useEndSession(callbacks: MutationCallbacks<unknown, Session> = {}) {
  return useChange({
    mutationFn: (s: Session) => api(`/auth/sessions/${s.id}`, { method: 'DELETE' }),
    ...callbacks,
    invalidates: () => [sessionKeys.all],
  })
}
