import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from './client'
import type { SpeakingFeed, SpeakingFeedStatus } from './types'

const feedKeys = { status: ['speaking-feed', 'status'] as const }

/** `https://…/x.ics` → `webcal://…/x.ics`: the scheme calendar apps open as a subscription. */
export function webcalUrl(url: string): string {
  return url.replace(/^https?:\/\//, 'webcal://')
}

/**
 * The caller's speaking calendar feed (docs/api-reference.md §13). The server keeps only a
 * hash of the address, so it is known only right after `create`; `create`
 * again replaces it (the old address stops working), `revoke` removes it.
 */
export function useSpeakingFeed() {
  const qc = useQueryClient()
  const refreshStatus = () => void qc.invalidateQueries({ queryKey: feedKeys.status })
  // Whether a feed exists and since when (S13): the owner sees one a stolen session made.
  const status = useQuery({
    queryKey: feedKeys.status,
    queryFn: () => api<SpeakingFeedStatus>('/speaking/feed'),
  })
  const create = useMutation({
    mutationFn: () => api<SpeakingFeed>('/speaking/feed', { method: 'POST' }),
    onSuccess: refreshStatus,
  })
  const revoke = useMutation({
    mutationFn: () => api<null>('/speaking/feed', { method: 'DELETE' }),
    onSuccess: () => {
      create.reset()
      refreshStatus()
    },
  })
  return { url: create.data?.url ?? null, status: status.data ?? null, create, revoke }
}
