import { useCallback, useSyncExternalStore } from 'react'
import { useQueryClient, type Query } from '@tanstack/react-query'

/** What the screen shows, as the query cache knows it: for the offline banner. */
export interface ShownData {
  /** When the oldest data on screen was fetched (ms since the epoch); null when nothing is shown. */
  since: number | null
  /** A page on screen waits for the connection with nothing to show yet. */
  waiting: boolean
  /** Changes (mutations) held until the connection is back. */
  held: number
}

const shown = (q: Query) => q.isActive() && q.state.data !== undefined && q.state.dataUpdatedAt > 0
const waitingEmpty = (q: Query) => q.isActive() && q.state.status === 'pending' && q.state.fetchStatus === 'paused'

/**
 * The age of the data the pages on screen show, and whether one of them
 * waits with none: any page, through the query cache, so every page keeps
 * its last data with a "not up to date" mark without knowing about it.
 */
export function useShownData(): ShownData {
  const client = useQueryClient()
  const subscribe = useCallback(
    (onChange: () => void) => {
      const offQueries = client.getQueryCache().subscribe(onChange)
      const offMutations = client.getMutationCache().subscribe(onChange)
      return () => (offQueries(), offMutations())
    },
    [client],
  )
  // A string snapshot: equal values do not re-render.
  const snapshot = useSyncExternalStore(subscribe, () => {
    const queries = client.getQueryCache().getAll()
    const times = queries.filter(shown).map((q) => q.state.dataUpdatedAt)
    const held = client
      .getMutationCache()
      .getAll()
      .filter((m) => m.state.isPaused).length
    return `${times.length ? Math.min(...times) : ''}|${queries.some(waitingEmpty) ? 1 : 0}|${held}`
  })
  const [since, waiting, held] = snapshot.split('|')
  return { since: since ? Number(since) : null, waiting: waiting === '1', held: Number(held) }
}
