import { useSyncExternalStore } from 'react'

/**
 * Whether a new version of the client is waiting (its service worker is
 * installed and waits for the user to accept it), and how to switch to it.
 * Kept out of the worker's registration chunk so the page can show the
 * prompt without loading that chunk first.
 */
type Apply = () => void

let apply: Apply | null = null
const listeners = new Set<() => void>()

export function setUpdateWaiting(next: Apply | null): void {
  apply = next
  for (const l of listeners) l()
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The function that activates the waiting version and reloads, or null when none waits. */
export function useWaitingUpdate(): Apply | null {
  return useSyncExternalStore(
    subscribe,
    () => apply,
    () => null,
  )
}
