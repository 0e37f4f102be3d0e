/**
 * Whether a new version of the client is waiting (its service worker is
 * installed and waits for the user to accept it), and how to switch to it.
 * Plain data with no React, so the worker's registration chunk (worker.ts)
 * shares nothing else with the first download.
 */
export type ApplyUpdate = () => void

let apply: ApplyUpdate | null = null
const listeners = new Set<() => void>()

export function setUpdateWaiting(next: ApplyUpdate | null): void {
  apply = next
  for (const l of listeners) l()
}

export function subscribeToUpdate(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The function that activates the waiting version and reloads, or null when none waits. */
export const waitingUpdate = (): ApplyUpdate | null => apply
