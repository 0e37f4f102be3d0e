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
import { firstScreenParts, type FirstScreen, type SessionLossReason } from '../api/session'
import { fetchMe, readMe, writeMe } from '../api/me'
import { adoptAccountLanguage } from './accountLanguage'
import { forgetThisDevice } from '../api/push'
import type { Me, RefreshResponse, TokenResponse } from '../api/types'
import { forgetShownPages } from '../api/script-window'
import { useInactivitySignOut } from './inactivity'
import { headedToBoard, preloadFirstScreen } from '../preload'
import { seedFirstScreen, useBootSession, type SessionStatus } from './useBootSession'

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

  const adoptMe = useCallback(
    (profile: Me) => {
      adoptAccountLanguage(profile)
      writeMe(queryClient, profile)
      setStatus('authenticated')
      return profile
    },
    [queryClient],
  )
  const reloadMe = useCallback(async () => adoptMe(await fetchMe()), [adoptMe])

  const sessionLost = useCallback(
    (reason: SessionLossReason) => {
      if (statusRef.current === 'authenticated') setEnded(reason === 'idle' ? 'idle' : 'expired')
      signOutLocally()
    },
    [signOutLocally],
  )
  useSessionSignals(queryClient, sessionLost)

  /** A new session: its token, and the first screen's data when the sign-in carried it (else it is asked for). */
  const beginSession = useCallback(
    async (tok: TokenResponse & FirstScreen) => {
      setSession(tok)
      setIdleTimeout(tok.idle_timeout ?? null)
      queryClient.clear()
      const texts = seedFirstScreen(queryClient, tok)
      preloadFirstScreen()
      setEnded(null)
      clearBootError()
      await texts
      if (tok.me) adoptMe(tok.me)
      else await reloadMe()
    },
    [queryClient, adoptMe, reloadMe, clearBootError],
  )

  const login = useCallback(
    async (email: string, password: string, options?: { shared?: boolean }) => {
      preloadFirstScreen()
      await beginSession(await signIn(email, password, options?.shared === true))
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

/** The sign-in itself; its answer carries the first screen (the board and the queue when headed there): one round trip. */
function signIn(email: string, password: string, shared: boolean): Promise<RefreshResponse> {
  const form: Record<string, string> = { username: email, password }
  if (shared) form.shared_computer = 'true'
  const include = firstScreenParts(headedToBoard()).join(',')
  return api<RefreshResponse>('/auth/login', { method: 'POST', form, query: { include }, anonymous: true })
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
