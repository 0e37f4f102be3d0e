import { useSyncExternalStore } from 'react'
import { onlineManager } from '@tanstack/react-query'
import { onNetworkResult, onWaitingChanges, probeServer, setConnectionGate, waitingChangeCount } from '../api/client'

/**
 * Whether the app can reach the server: the browser's own online/offline
 * events, and the API client's requests (a failed fetch means unreachable,
 * any answer means reachable). While unreachable, the server's liveness
 * route is probed with backoff, so recovery is noticed even when nothing
 * else asks. TanStack Query follows this state (onlineManager): while
 * offline, queries and new mutations wait and run again on recovery.
 */

const PROBE_DELAYS = [1000, 2000, 4000, 8000]
let browserOnline = true
let serverReached = true
let probeAttempt = 0
let probeTimer: number | undefined
const listeners = new Set<() => void>()

const isOnline = (): boolean => browserOnline && serverReached

function changed(): void {
  for (const l of listeners) l()
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

function scheduleProbe(): void {
  window.clearTimeout(probeTimer)
  if (serverReached || !browserOnline) return // the `online` event probes at once
  const delay = PROBE_DELAYS[Math.min(probeAttempt, PROBE_DELAYS.length - 1)]!
  probeAttempt += 1
  probeTimer = window.setTimeout(() => {
    void probeServer().then((ok) => {
      if (!ok) scheduleProbe()
    })
  }, delay)
}

function setServerReached(reached: boolean): void {
  if (reached === serverReached) return
  serverReached = reached
  probeAttempt = 0
  if (reached) window.clearTimeout(probeTimer)
  else scheduleProbe()
  changed()
}

let started = false

/** Starts watching; call once before rendering. */
export function watchConnection(): void {
  if (started) return
  started = true
  browserOnline = navigator.onLine
  window.addEventListener('online', () => {
    browserOnline = true
    changed()
    if (!serverReached) {
      probeAttempt = 0
      void probeServer().then((ok) => !ok && scheduleProbe())
    }
  })
  window.addEventListener('offline', () => {
    browserOnline = false
    window.clearTimeout(probeTimer)
    changed()
  })
  onNetworkResult(setServerReached)
  setConnectionGate(untilOnline)
  onlineManager.setEventListener((setOnline) => {
    const update = () => setOnline(isOnline())
    update()
    return subscribe(update)
  })
}

/** null when online (requests go at once), else a promise that resolves on recovery. */
function untilOnline(): Promise<void> | null {
  if (isOnline()) return null
  return new Promise((resolve) => {
    const off = subscribe(() => {
      if (!isOnline()) return
      off()
      resolve()
    })
  })
}

export function useOnline(): boolean {
  // Rendered at build time: online (the page was just served).
  return useSyncExternalStore(subscribe, isOnline, () => true)
}

/** How many changes wait for the connection (made while offline; sent on recovery). */
export function useWaitingChanges(): number {
  return useSyncExternalStore(onWaitingChanges, waitingChangeCount)
}
