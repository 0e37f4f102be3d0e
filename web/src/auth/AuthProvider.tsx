import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react'
import { useQueryClient } from '@tanstack/react-query'
import {
  api,
  ApiError,
  getIdleTimeout,
  onPasswordChangeRequired,
  onSessionLost,
  refreshAccessToken,
  sessionMayExist,
  setAccessToken,
  setSession,
  takeBootRefresh,
} from '../api/client'
import { fetchMe, readMe, writeMe } from '../api/me'
import { forgetThisDevice } from '../api/push'
import type { Me, TokenResponse } from '../api/types'
import { forgetShownPages } from '../api/script-window'
import { useOnline } from '../resilience/connection'
import { useInactivitySignOut } from './inactivity'
import { headedToBoard, preloadFirstScreen } from '../preload'
import { prefetchBoard } from '../api/board'
import { i18next, isLanguage, setLanguage } from '../i18n'

/**
 * Signed in, the account's language wins over the device's (docs/decisions.md,
 * "Languages"): the page switches to it and this device remembers it.
 */
function adoptAccountLanguage(profile: Me): void {
  if (isLanguage(profile.language) && profile.language !== i18next.resolvedLanguage) {
    void setLanguage(profile.language)
  }
}

type Status = 'loading' | 'anonymous' | 'authenticated'

interface AuthState {
  status: Status
  me: Me | null
  /** Set when a session ended on its own (failed refresh), to explain it on sign-in. */
  sessionExpired: boolean
  /** Set when a shared-computer session ended after 30 minutes without activity (docs/api-reference.md §13). */
  idleSignOut: boolean
  /** Set when the very first refresh could not reach the server. */
  bootError: string | null
  login(email: string, password: string, options?: { shared?: boolean }): Promise<void>
  /**
   * Starts a session from a token answer the server gave outside the sign-in
   * form (a new stake's administrator, POST /stakes), exactly as a sign-in does.
   */
  beginSession(tokens: TokenResponse): Promise<void>
  logout(opts?: { all?: boolean }): Promise<void>
  reloadMe(): Promise<Me | null>
  retryBoot(): void
}

const AuthContext = createContext<AuthState | null>(null)

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient()
  const [status, setStatus] = useState<Status>('loading')
  // The signed-in user is read from the query cache (api/me.ts), synchronously:
  // it is written before `status` changes, so no render sees one without the other.
  const me = useSyncExternalStore(
    useCallback((onChange) => queryClient.getQueryCache().subscribe(onChange), [queryClient]),
    () => readMe(queryClient),
  )
  const [sessionExpired, setSessionExpired] = useState(false)
  const [idleSignOut, setIdleSignOut] = useState(false)
  /** Seconds without activity that end this session (shared computer), else null. */
  const [idleTimeout, setIdleTimeout] = useState<number | null>(null)
  const [bootError, setBootError] = useState<string | null>(null)
  const [bootAttempt, setBootAttempt] = useState(0)
  const statusRef = useRef<Status>('loading')
  useEffect(() => {
    statusRef.current = status
  }, [status])

  const signOutLocally = useCallback(() => {
    setAccessToken(null)
    setIdleTimeout(null)
    forgetShownPages() // S15: no printable page stays readable after a sign-out
    queryClient.clear()
    writeMe(queryClient, null)
    setStatus('anonymous')
  }, [queryClient])

  const reloadMe = useCallback(async () => {
    const profile = await fetchMe()
    adoptAccountLanguage(profile)
    writeMe(queryClient, profile)
    setStatus('authenticated')
    return profile
  }, [queryClient])

  // On page load a silent refresh, then the profile: the access token lives in memory only, so a reload starts without one.
  useEffect(() => {
    let cancelled = false
    ;(async () => {
      // No session on this browser: anonymous at once, without a refresh probe that can only fail.
      if (!sessionMayExist()) {
        setStatus('anonymous')
        return
      }
      try {
        // The first attempt takes the refresh main.tsx sent before the first render.
        const token = await (bootAttempt === 0 ? takeBootRefresh() : refreshAccessToken())
        if (cancelled) return
        if (!token) {
          setStatus('anonymous')
          return
        }
        // The board's data together with the profile, not after it (one round trip less on a phone), and before the code
        // preloads, which each take the main thread a moment on a phone.
        if (headedToBoard()) prefetchBoard(queryClient)
        preloadFirstScreen()
        const profile = await fetchMe()
        if (cancelled) return
        adoptAccountLanguage(profile)
        writeMe(queryClient, profile)
        setIdleTimeout(getIdleTimeout())
        setBootError(null)
        setStatus('authenticated')
      } catch (err) {
        if (cancelled) return
        if (err instanceof ApiError && err.status === 0) {
          setBootError(err.message)
        }
        setStatus('anonymous')
      }
    })()
    return () => {
      cancelled = true
    }
  }, [bootAttempt, queryClient])

  // A page opened without a connection signs the user in by itself once it is back.
  const online = useOnline()
  useEffect(() => {
    if (online && bootError && statusRef.current === 'anonymous') {
      setStatus('loading')
      setBootAttempt((n) => n + 1)
    }
  }, [online, bootError])

  // Only a failed refresh sends the user to sign-in: a 401 is first answered by one refresh and a retry (api/session.ts).
  useEffect(
    () =>
      onSessionLost((reason) => {
        if (statusRef.current === 'authenticated') {
          setIdleSignOut(reason === 'idle')
          setSessionExpired(reason !== 'idle')
        }
        signOutLocally()
      }),
    [signOutLocally],
  )

  // If the server says a password change is needed, reload the profile so the
  // guard shows the change-password screen.
  useEffect(
    () =>
      onPasswordChangeRequired(() => {
        writeMe(queryClient, (m) => (m ? { ...m, force_password_reset: true } : m))
      }),
    [queryClient],
  )

  const beginSession = useCallback(
    async (tok: TokenResponse) => {
      setSession(tok)
      setIdleTimeout(tok.idle_timeout ?? null)
      queryClient.clear()
      if (headedToBoard()) prefetchBoard(queryClient)
      preloadFirstScreen()
      setSessionExpired(false)
      setIdleSignOut(false)
      setBootError(null)
      await reloadMe()
    },
    [queryClient, reloadMe],
  )

  const login = useCallback(
    async (email: string, password: string, options?: { shared?: boolean }) => {
      preloadFirstScreen()
      const form: Record<string, string> = { username: email, password }
      if (options?.shared) form.shared_computer = 'true'
      const tok = await api<TokenResponse>('/auth/login', { method: 'POST', form, anonymous: true })
      await beginSession(tok)
    },
    [beginSession],
  )

  const logout = useCallback(
    async (opts?: { all?: boolean }) => {
      // This browser stops receiving this user's pushes while the session can still say so.
      await forgetThisDevice()
      try {
        await api('/auth/logout', { method: 'POST', query: opts?.all ? { all: true } : undefined })
      } catch {
        // Whatever the server says, the client forgets the user: a sign-out that fails on the network must not leave the screen signed in.
      }
      setSessionExpired(false)
      setIdleSignOut(false)
      signOutLocally()
    },
    [signOutLocally],
  )

  // A shared computer: signed out after the session's idle timeout without input.
  const signOutIdle = useCallback(() => {
    void logout().then(() => setIdleSignOut(true))
  }, [logout])
  const keepAlive = useCallback(() => fetchMe(), [])
  useInactivitySignOut(status === 'authenticated' ? idleTimeout : null, signOutIdle, keepAlive)

  const value = useMemo<AuthState>(
    () => ({
      status,
      me,
      sessionExpired,
      idleSignOut,
      bootError,
      login,
      beginSession,
      logout,
      reloadMe,
      retryBoot: () => {
        setStatus('loading')
        setBootAttempt((n) => n + 1)
      },
    }),
    [status, me, sessionExpired, idleSignOut, bootError, login, beginSession, logout, reloadMe],
  )

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext)
  if (!ctx) throw new Error('useAuth outside AuthProvider')
  return ctx
}

/** The signed-in user; only for components rendered behind RequireAuth. */
export function useMe(): Me {
  const { me } = useAuth()
  if (!me) throw new Error('useMe without a signed-in user')
  return me
}
