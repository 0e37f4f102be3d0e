/**
 * The session in this browser: the access token in memory only (never
 * localStorage or sessionStorage; the refresh token is an HttpOnly cookie the
 * browser sends to /api/auth/refresh by itself), the hint whether a session
 * may exist, the listeners told when it is lost or needs a new password, one
 * refresh at a time, and the refresh sent at page load.
 */
import { API_BASE } from '@stake/contract/routes'
import { ApiError } from './errors'
import { fetchTracked, parseBody } from './transport'
import type { RefreshInclude, RefreshResponse } from './types'

let accessToken: string | null = null
/** Seconds without activity that end this session: set only on a shared computer (docs/api-reference.md §13). */
let idleTimeout: number | null = null
let refreshInFlight: Promise<string | null> | null = null
/** Why the last refresh was refused ('idle': the server's `session_idle`). */
let lastLoss: SessionLossReason = 'ended'
/** Why a session was lost: the server ended a shared-computer session for inactivity, or anything else. */
export type SessionLossReason = 'idle' | 'ended'
const sessionLostListeners = new Set<(reason: SessionLossReason) => void>()
const passwordRequiredListeners = new Set<() => void>()

export function getAccessToken(): string | null {
  return accessToken
}

export function setAccessToken(token: string | null): void {
  accessToken = token
  if (token === null) {
    idleTimeout = null
    rememberSession(false)
  }
}

/** Keeps what a sign-in or refresh answered: the token, and whether the session ends when idle. */
export function setSession(tokens: { access_token: string; idle_timeout?: number }): void {
  accessToken = tokens.access_token
  idleTimeout = tokens.idle_timeout ?? null
  rememberSession(true)
}

/**
 * Whether this browser may hold a session: set when a sign-in or
 * refresh succeeds, cleared when one fails or the user signs out. The refresh
 * cookie itself is HttpOnly; without this hint a first visit would probe
 * /auth/refresh and log its 401 in the console. Unknown storage counts as yes.
 */
const SESSION_HINT = 'stake.session'
export function sessionMayExist(): boolean {
  try {
    return localStorage.getItem(SESSION_HINT) === '1'
  } catch {
    return true
  }
}
function rememberSession(on: boolean): void {
  try {
    if (on) localStorage.setItem(SESSION_HINT, '1')
    else localStorage.removeItem(SESSION_HINT)
  } catch {
    // Storage refused (private mode): the hint stays unknown, which probes as before.
  }
}

/** Seconds of inactivity after which this (shared-computer) session ends, or null. */
export function getIdleTimeout(): number | null {
  return idleTimeout
}

/** Called when a refresh fails: the session is gone, show sign-in. */
export function onSessionLost(listener: (reason: SessionLossReason) => void): () => void {
  sessionLostListeners.add(listener)
  return () => sessionLostListeners.delete(listener)
}

/** Called when the server answers 403 password_change_required. */
export function onPasswordChangeRequired(listener: () => void): () => void {
  passwordRequiredListeners.add(listener)
  return () => passwordRequiredListeners.delete(listener)
}

/** Tells the listeners that the session is gone (a refresh was refused). */
export function sessionLost(): void {
  for (const l of sessionLostListeners) l(lastLoss)
}

/** Tells the listeners that the server answered 403 password_change_required. */
export function passwordChangeRequired(): void {
  for (const l of passwordRequiredListeners) l()
}

/**
 * One refresh at a time: every caller that needs a new token awaits the same
 * promise. Resolves to the new token, or null when the session is gone.
 */
export function refreshAccessToken(include: readonly RefreshInclude[] = []): Promise<string | null> {
  if (!refreshInFlight) {
    const query = include.length > 0 ? `?include=${include.join(',')}` : ''
    refreshInFlight = (async () => {
      try {
        const res = await fetchTracked(`${API_BASE}/auth/refresh${query}`, {
          method: 'GET',
          credentials: 'same-origin',
          headers: { Accept: 'application/json' },
        })
        if (!res.ok) {
          // Read the refusal's body too: an unread body keeps the request open (Chromium never goes network-idle).
          const refusal = (await parseBody(res)) as { code?: string } | null
          lastLoss = refusal?.code === 'session_idle' ? 'idle' : 'ended'
          setAccessToken(null)
          return null
        }
        const body = (await res.json()) as Partial<RefreshResponse>
        if (body.access_token) setSession({ access_token: body.access_token, idle_timeout: body.idle_timeout })
        else setAccessToken(null)
        if (include.length > 0)
          firstScreen = {
            me: body.me,
            board: body.board,
            board_etag: body.board_etag,
            actions: body.actions,
            wards: body.wards,
            stake: body.stake,
            setup: body.setup,
          }
        return accessToken
      } catch {
        // Network failure: keep the session state unknown rather than signing
        // the user out; the caller gets a status-0 error.
        throw new ApiError(0, null)
      }
    })().finally(() => {
      refreshInFlight = null
    })
  }
  return refreshInFlight
}

let bootRefresh: Promise<string | null> | null = null

/**
 * What a sign-in or the page load's refresh asks to carry: the profile, and when headed to the board the board,
 * the queue, the wards (the cards' ward names, the ward filter), the stake and its first-run steps (left out by
 * the server for whoever may not take them), so nothing arrives after the cards to change or push them down.
 */
export function firstScreenParts(withBoard: boolean): RefreshInclude[] {
  return withBoard ? ['me', 'board', 'actions', 'wards', 'stake', 'setup'] : ['me']
}

/** The first screen's data that came with the page load's refresh (firstScreenParts). */
export type FirstScreen = Pick<
  Partial<RefreshResponse>,
  'me' | 'board' | 'board_etag' | 'actions' | 'wards' | 'stake' | 'setup'
>
let firstScreen: FirstScreen = {}

/**
 * The page load's silent refresh, sent as soon as the code has loaded (main.tsx),
 * not after React's first render: on a phone's CPU that render is ~100 ms the
 * request would otherwise wait for. Only when a session may exist (no probe
 * that can only fail). It asks for the profile, and when the page is the board
 * for the board and what awaits the caller (a phone opens the board at the
 * first stage holding something for the caller), in the same answer
 * (`include`): one round trip to the first screen instead of three.
 * AuthProvider takes it with takeBootRefresh().
 */
export function startBootRefresh(withBoard: boolean): void {
  if (bootRefresh || !sessionMayExist()) return
  bootRefresh = refreshAccessToken(firstScreenParts(withBoard))
  // Whoever takes it sees a failure; until then it is not an unhandled rejection.
  bootRefresh.catch(() => {})
}

/** The refresh startBootRefresh() sent, once; afterwards (or without one) a new refresh. */
export function takeBootRefresh(): Promise<string | null> {
  const started = bootRefresh
  bootRefresh = null
  return started ?? refreshAccessToken()
}

/** What the page load's refresh carried besides the token, once; empty afterwards or when it carried nothing. */
export function takeFirstScreen(): FirstScreen {
  const taken = firstScreen
  firstScreen = {}
  return taken
}
