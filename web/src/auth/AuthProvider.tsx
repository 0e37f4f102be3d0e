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
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { api, onPasswordChangeRequired, onSessionLost, setAccessToken, setSession } from '../api/client'
import type { SessionLossReason } from '../api/session'
import { fetchMe, readMe, writeMe } from '../api/me'
import { adoptAccountLanguage } from './accountLanguage'
import { forgetThisDevice } from '../api/push'
import type { Me, TokenResponse } from '../api/types'
import { forgetShownPages } from '../api/script-window'
import { useInactivitySignOut } from './inactivity'
import { headedToBoard, preloadFirstScreen } from '../preload'
import { prefetchActions } from '../api/actions'
import { prefetchBoard } from '../api/board'
import { useBootSession, type SessionStatus } from './useBootSession'

interface AuthState {
  status: SessionStatus
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

/**
 * `initialStatus`: 'anonymous' when the page starts without a session to
 * resume (the sign-in page rendered at build time, and the browser that
 * hydrates it); else the first refresh decides.
 */
interface AuthProviderProps {
  children: ReactNode
  initialStatus?: SessionStatus
}

export function AuthProvider({ children, initialStatus = 'loading' }: AuthProviderProps) {
  const queryClient = useQueryClient()
  const [status, setStatus] = useState<SessionStatus>(initialStatus)
  const me = useCachedMe(queryClient)
  /** Why the last session ended on its own, said on the sign-in screen. */
  const [ended, setEnded] = useState<'expired' | 'idle' | null>(null)
  /** Seconds without activity that end this session (shared computer), else null. */
  const [idleTimeout, setIdleTimeout] = useState<number | null>(null)
  const statusRef = useRef<SessionStatus>(initialStatus)
  useEffect(() => {
    statusRef.current = status
  }, [status])
  const {
    bootError,
    clearBootError,
    retry: retryBoot,
  } = useBootSession(queryClient, statusRef, setStatus, setIdleTimeout)

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

  const sessionLost = useCallback(
    (reason: SessionLossReason) => {
      if (statusRef.current === 'authenticated') setEnded(reason === 'idle' ? 'idle' : 'expired')
      signOutLocally()
    },
    [signOutLocally],
  )
  useSessionSignals(queryClient, sessionLost)

  const beginSession = useCallback(
    async (tok: TokenResponse) => {
      setSession(tok)
      setIdleTimeout(tok.idle_timeout ?? null)
      queryClient.clear()
      if (headedToBoard()) {
        prefetchBoard(queryClient)
        prefetchActions(queryClient)
      }
      preloadFirstScreen()
      setEnded(null)
      clearBootError()
      await reloadMe()
    },
    [queryClient, reloadMe, clearBootError],
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
      setEnded(null)
      signOutLocally()
    },
    [signOutLocally],
  )

  // A shared computer: signed out after the session's idle timeout without input.
  const signOutIdle = useCallback(() => {
    void logout().then(() => setEnded('idle'))
  }, [logout])
  const keepAlive = useCallback(() => fetchMe(), [])
  useInactivitySignOut(status === 'authenticated' ? idleTimeout : null, signOutIdle, keepAlive)

  const value = useMemo<AuthState>(
    () => ({
      status,
      me,
      sessionExpired: ended === 'expired',
      idleSignOut: ended === 'idle',
      bootError,
      login,
      beginSession,
      logout,
      reloadMe,
      retryBoot,
    }),
    [status, me, ended, bootError, login, beginSession, logout, reloadMe, retryBoot],
  )

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}

/**
 * The signed-in user, read from the query cache (api/me.ts) synchronously:
 * it is written before `status` changes, so no render sees one without the other.
 */
function useCachedMe(queryClient: QueryClient): Me | null {
  return useSyncExternalStore(
    useCallback((onChange) => queryClient.getQueryCache().subscribe(onChange), [queryClient]),
    () => readMe(queryClient),
    // Rendered at build time: nobody is signed in.
    () => null,
  )
}

/**
 * Only a failed refresh ends the session here: a 401 is first answered by one
 * refresh and a retry (api/session.ts). A server that asks for a password
 * change marks the cached profile, so the guard shows the change-password screen.
 */
function useSessionSignals(queryClient: QueryClient, onLost: (reason: SessionLossReason) => void) {
  useEffect(() => onSessionLost(onLost), [onLost])
  useEffect(
    () =>
      onPasswordChangeRequired(() => {
        writeMe(queryClient, (m) => (m ? { ...m, force_password_reset: true } : m))
      }),
    [queryClient],
  )
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
