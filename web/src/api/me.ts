import type { QueryClient } from '@tanstack/react-query'
import { api } from './client'
import type { Me } from './types'

/**
 * The signed-in user lives in the query cache under one key: the auth layer
 * writes it (sign-in, boot, reload), `useMe()` reads it. Kept for the whole
 * session (no garbage collection, never stale); `queryClient.clear()` at
 * sign-out drops it with everything else.
 */
const meKeys = {
  all: ['me'] as const,
}

export const fetchMe = () => api<Me>('/auth/me')

export function writeMe(qc: QueryClient, update: Me | null | ((me: Me | undefined) => Me | undefined)): void {
  qc.setQueryDefaults(meKeys.all, { gcTime: Infinity, staleTime: Infinity })
  if (update === null) qc.removeQueries({ queryKey: meKeys.all, exact: true })
  else qc.setQueryData<Me>(meKeys.all, update)
}

export const readMe = (qc: QueryClient): Me | null => qc.getQueryData<Me>(meKeys.all) ?? null
