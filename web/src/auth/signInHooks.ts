import { useEffect, useState } from 'react'
import { autofillSupported, cancelPasskeyPrompt, passkeySignIn } from '../api/accounts'
import type { TokenResponse } from '../api/types'

/**
 * Conditional UI: where the browser offers it, the passkeys of this site appear among the email
 * field's suggestions; picking one signs in (docs/api-reference.md §16).
 */
export function usePasskeyAutofill(beginSession: (tokens: TokenResponse) => Promise<void>) {
  useEffect(() => {
    let live = true
    void autofillSupported().then((yes) => {
      if (!yes || !live) return
      passkeySignIn(beginSession, { autofill: true }).catch(() => {
        // Cancelled (the button below asks instead) or refused: the form stays.
      })
    })
    return () => {
      live = false
      cancelPasskeyPrompt()
    }
  }, [beginSession])
}

/** A sign-in refused for too many attempts: the seconds left, counted down each second. */
export function useLockout() {
  const [lockedUntil, setLockedUntil] = useState<number | null>(null)
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (lockedUntil === null) return
    const t = window.setInterval(() => setNow(Date.now()), 1000)
    return () => window.clearInterval(t)
  }, [lockedUntil])
  const secondsLeft = lockedUntil !== null ? Math.max(0, Math.ceil((lockedUntil - now) / 1000)) : 0
  const lock = (seconds: number) => {
    setLockedUntil(Date.now() + seconds * 1000)
    setNow(Date.now())
  }
  return { secondsLeft, locked: secondsLeft > 0, lock }
}
