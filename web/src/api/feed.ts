import { useMutation } from '@tanstack/react-query'
import { api } from './client'
import type { SpeakingFeed } from './types'

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
  const create = useMutation({
    mutationFn: () => api<SpeakingFeed>('/speaking/feed', { method: 'POST' }),
  })
  const revoke = useMutation({
    mutationFn: () => api<null>('/speaking/feed', { method: 'DELETE' }),
    onSuccess: () => create.reset(),
  })
  return { url: create.data?.url ?? null, create, revoke }
}
