import { useEffect, useState } from 'react'

function fromAddress(): string {
  const value = window.location.hash.replace(/^#/, '')
  return /^[A-Za-z0-9_-]{1,200}$/.test(value) ? value : ''
}

/**
 * The token of an emailed link (`/welcome#<token>`, `/reset-password#<token>`):
 * read once from the address's fragment (never sent to the server in the
 * page request, so never in its logs), then taken out of the address bar
 * and the history.
 */
export function useLinkToken(): string {
  // Read while rendering, taken out of the address once shown: a render that suspends (a page's
  // texts still loading) is thrown away and reads the address again.
  const [token, setToken] = useState(fromAddress)
  useEffect(() => {
    const strip = () => {
      if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname)
    }
    strip()
    // Another link opened in the same tab changes only the fragment: no new page, a new token.
    const onHashChange = () => {
      const next = fromAddress()
      if (next) setToken(next)
      strip()
    }
    window.addEventListener('hashchange', onHashChange)
    return () => window.removeEventListener('hashchange', onHashChange)
  }, [])
  return token
}

export type PasswordProblem = 'enter' | 'tooShort' | 'tooLong' | 'mismatch'

/** The new-password rules the server applies (§3), checked before sending. */
export function checkPasswords(
  password: string,
  repeat: string,
): { password?: PasswordProblem; repeat?: PasswordProblem } {
  if (!password) return { password: 'enter' }
  if (password.length < 8) return { password: 'tooShort' }
  if (password.length > 256) return { password: 'tooLong' }
  if (password !== repeat) return { repeat: 'mismatch' }
  return {}
}
