import { useEffect, useRef } from 'react'

/**
 * The client's half of "This is a shared computer" (docs/api-reference.md §13): after
 * `timeoutSeconds` without input the user is signed out. The server ends the
 * session on its own too (30 minutes without requests); so that a user who
 * keeps working on one screen is not cut off by it, input also tells the
 * server about activity, at most every KEEPALIVE_MS. Activity is shared
 * between the app's tabs through localStorage (a timestamp, nothing else),
 * so an idle tab does not sign out a user working in another one.
 */

const INPUT_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const
const STORAGE_KEY = 'stake.lastActivity'
/** How often the deadline is looked at (timers stop in a sleeping tab: the time is read from the clock). */
const CHECK_MS = 15_000
/** At most one activity write (storage) per this many ms, and one request to the server per KEEPALIVE_MS. */
const RECORD_MS = 5_000
const KEEPALIVE_MS = 5 * 60_000

function readShared(): number {
  try {
    return Number(localStorage.getItem(STORAGE_KEY)) || 0
  } catch {
    return 0
  }
}

function writeShared(at: number): void {
  try {
    localStorage.setItem(STORAGE_KEY, String(at))
  } catch {
    // storage blocked: this tab's own timer still applies
  }
}

export function useInactivitySignOut(
  timeoutSeconds: number | null,
  onIdle: () => void,
  keepAlive: () => Promise<unknown>,
): void {
  const onIdleRef = useRef(onIdle)
  const keepAliveRef = useRef(keepAlive)
  useEffect(() => {
    onIdleRef.current = onIdle
    keepAliveRef.current = keepAlive
  }, [onIdle, keepAlive])

  useEffect(() => {
    if (timeoutSeconds === null) return
    const limit = timeoutSeconds * 1000
    let last = Date.now()
    let recorded = 0
    let keptAlive = Date.now()
    writeShared(last)

    let done = false
    const check = () => {
      if (done) return
      if (Date.now() - Math.max(last, readShared()) >= limit) {
        done = true
        onIdleRef.current()
      }
    }
    const onInput = () => {
      const now = Date.now()
      // Input after the deadline (a laptop opened after an hour) does not revive the session.
      if (now - Math.max(last, readShared()) >= limit) return check()
      last = now
      if (now - recorded >= RECORD_MS) {
        recorded = now
        writeShared(now)
      }
      if (now - keptAlive >= KEEPALIVE_MS) {
        keptAlive = now
        void keepAliveRef.current().catch(() => {})
      }
    }
    const onVisible = () => {
      if (document.visibilityState === 'visible') check()
    }

    for (const type of INPUT_EVENTS) window.addEventListener(type, onInput, { passive: true, capture: true })
    document.addEventListener('visibilitychange', onVisible)
    const timer = window.setInterval(check, CHECK_MS)
    return () => {
      for (const type of INPUT_EVENTS) window.removeEventListener(type, onInput, { capture: true })
      document.removeEventListener('visibilitychange', onVisible)
      window.clearInterval(timer)
    }
  }, [timeoutSeconds])
}
