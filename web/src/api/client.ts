/**
 * HTTP client for the Stake Administration API.
 *
 * Security rules (docs/SECURITY.md):
 * - the access token lives only in this module's memory (never localStorage or
 *   sessionStorage); the refresh token is an HttpOnly cookie the browser sends
 *   to /api/auth/refresh by itself;
 * - a request answered 401 triggers one refresh, shared by every request that
 *   is waiting at that moment, and is retried once; the caller never sees that
 *   first 401. Only a failed refresh is reported (through onSessionLost) so the
 *   app can show the sign-in screen.
 */

import i18next from 'i18next'
import { API_BASE } from '@stake/contract/routes'

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
const networkListeners = new Set<(reached: boolean) => void>()

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

/**
 * Called after every request with whether the server was reached at all
 * (any HTTP answer counts; a failed fetch does not). The connection banner
 * (src/resilience/connection.ts) listens.
 */
export function onNetworkResult(listener: (reached: boolean) => void): () => void {
  networkListeners.add(listener)
  return () => networkListeners.delete(listener)
}

let connectionGate: () => Promise<void> = () => Promise.resolve()

/**
 * While the app knows it is offline, requests wait at this gate and go out
 * on recovery (so a change made offline is sent later, not lost). A request
 * that fails in flight is not resent: it may have reached the server.
 */
export function setConnectionGate(gate: () => Promise<void>): void {
  connectionGate = gate
}

function networkResult(reached: boolean): void {
  for (const l of networkListeners) l(reached)
}

/** One `fetch` for the whole module, so every request reports whether it got through. */
async function fetchTracked(url: string, init: RequestInit): Promise<Response> {
  let res: Response
  try {
    res = await fetch(url, init)
  } catch (err) {
    if ((err as Error).name !== 'AbortError') networkResult(false)
    throw err
  }
  networkResult(true)
  return res
}

export interface FieldError {
  loc: (string | number)[]
  msg: string
  type?: string
}

/**
 * A message in the client's language (common `errors.*`). Before i18next is
 * initialised (unit tests under node) the English fallback is used.
 */
function text(key: string, fallback: string, options?: Record<string, unknown>): string {
  return i18next.isInitialized ? i18next.t(key, { ns: 'common', defaultValue: fallback, ...options }) : fallback
}

/**
 * The server writes its `detail` in English. In English it is shown as is
 * (it is the most precise); in another language the client's own text for the
 * error code, else for the HTTP status, stands in for it (docs/api-reference.md §13).
 */
function inClientLanguage(): boolean {
  return i18next.isInitialized && !!i18next.resolvedLanguage && i18next.resolvedLanguage !== 'en'
}

function localMessage(status: number, code: string | undefined): string {
  // The `errors` namespace is fetched in the background (i18n/index.ts); until it is there, the general text.
  if (code && i18next.exists(`errors:code.${code}`)) return i18next.t(`errors:code.${code}`)
  if (i18next.exists(`errors:httpStatus.${status}`)) return i18next.t(`errors:httpStatus.${status}`)
  return i18next.t('common:errors.status', { status })
}

/** A 422 field's message by its `type`, with the limit the server's English names ("at least 8"). */
function localFieldMessage(e: FieldError): string {
  const limit = /(\d+)/.exec(String(e.msg))?.[1]
  // An empty required text ("at least 1 character") simply is missing.
  const type = e.type === 'string_too_short' && limit === '1' ? 'missing' : e.type
  const raw: unknown = type ? i18next.getResource(i18next.resolvedLanguage ?? '', 'errors', `field.${type}`) : undefined
  if (typeof raw === 'string' && (limit !== undefined || !raw.includes('{{'))) {
    return i18next.t(`errors:field.${type}`, { limit })
  }
  return i18next.t('common:errors.invalid')
}

export class ApiError extends Error {
  readonly status: number
  readonly code: string | undefined
  readonly fieldErrors: FieldError[]
  readonly retryAfter: number | undefined

  constructor(status: number, body: unknown, retryAfter?: number) {
    const detail = (body as { detail?: unknown } | null)?.detail
    const code = (body as { code?: string } | null)?.code
    const local = inClientLanguage()
    const fieldErrors = Array.isArray(detail)
      ? (detail as FieldError[]).map((e) => (local ? { ...e, msg: localFieldMessage(e) } : e))
      : []
    const message =
      status === 0
        ? text('errors.network', 'The server could not be reached. Check your connection and try again.')
        : local
          ? localMessage(status, code)
          : typeof detail === 'string'
            ? detail
            : fieldErrors.length > 0
              ? fieldErrors.map((e) => e.msg).join('; ')
              : text('errors.status', `Request failed (${status})`, { status })
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.fieldErrors = fieldErrors
    this.retryAfter = retryAfter
  }

  /**
   * Maps 422 errors to form field names: `loc` is FastAPI style, so the first
   * element (`body`, `query`, `path`) is dropped and the rest joined with dots.
   */
  fieldMap(): Record<string, string> {
    const out: Record<string, string> = {}
    for (const e of this.fieldErrors) {
      const loc = Array.isArray(e.loc) ? e.loc : []
      const parts = ['body', 'query', 'path', 'header'].includes(String(loc[0])) ? loc.slice(1) : loc
      const key = parts.length > 0 ? parts.join('.') : '_'
      if (!(key in out)) out[key] = e.msg
    }
    return out
  }
}

/**
 * One refresh at a time: every caller that needs a new token awaits the same
 * promise. Resolves to the new token, or null when the session is gone.
 */
export function refreshAccessToken(): Promise<string | null> {
  if (!refreshInFlight) {
    refreshInFlight = (async () => {
      try {
        const res = await fetchTracked(`${API_BASE}/auth/refresh`, {
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
        const body = (await res.json()) as { access_token?: string; idle_timeout?: number }
        if (body.access_token) setSession({ access_token: body.access_token, idle_timeout: body.idle_timeout })
        else setAccessToken(null)
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
 * The page load's silent refresh, sent as soon as the code has loaded (main.tsx),
 * not after React's first render: on a phone's CPU that render is ~100 ms the
 * request would otherwise wait for. Only when a session may exist (no probe
 * that can only fail). AuthProvider takes it with takeBootRefresh().
 */
export function startBootRefresh(): void {
  if (bootRefresh || !sessionMayExist()) return
  bootRefresh = refreshAccessToken()
  // Whoever takes it sees a failure; until then it is not an unhandled rejection.
  bootRefresh.catch(() => {})
}

/** The refresh startBootRefresh() sent, once; afterwards (or without one) a new refresh. */
export function takeBootRefresh(): Promise<string | null> {
  const started = bootRefresh
  bootRefresh = null
  return started ?? refreshAccessToken()
}

type QueryValue = string | number | boolean | null | undefined

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  query?: Record<string, QueryValue>
  body?: unknown
  /** Form-encoded body (only the login uses this). */
  form?: Record<string, string>
  /** A raw body with its content type (an LCR report to import). */
  raw?: { body: Blob | string; type: string }
  /** Send without the access token and without refresh-on-401. */
  anonymous?: boolean
  signal?: AbortSignal
  /** Read a successful body as a Blob (a CSV or HTML download) instead of JSON. */
  as?: 'blob'
  /** Extra request headers (If-None-Match: a 304 answers with `data` null and status 304). */
  headers?: Record<string, string>
}

export interface ApiResponse<T> {
  data: T
  headers: Headers
  status: number
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const url = `${API_BASE}${path}`
  if (!query) return url
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue
    params.set(k, String(v))
  }
  const qs = params.toString()
  return qs ? `${url}?${qs}` : url
}

async function send(path: string, opts: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { ...opts.headers, Accept: 'application/json' }
  let body: BodyInit | undefined
  if (opts.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded'
    body = new URLSearchParams(opts.form).toString()
  } else if (opts.raw) {
    headers['Content-Type'] = opts.raw.type
    body = opts.raw.body
  } else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json'
    body = JSON.stringify(opts.body)
  }
  if (token && !opts.anonymous) headers.Authorization = `Bearer ${token}`
  try {
    return await fetchTracked(buildUrl(path, opts.query), {
      method: opts.method ?? 'GET',
      headers,
      body,
      credentials: 'same-origin',
      signal: opts.signal,
    })
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err
    throw new ApiError(0, null)
  }
}

/** Releases a response whose body is not needed (every body is consumed or cancelled). */
export async function discard(res: Response): Promise<void> {
  try {
    await res.body?.cancel()
  } catch {
    // Already consumed or the connection is gone: nothing left to release.
  }
}

async function parseBody(res: Response): Promise<unknown> {
  if (res.status === 204) {
    await discard(res)
    return null
  }
  const text = await res.text()
  if (!text) return null
  try {
    return JSON.parse(text)
  } catch {
    return { detail: text }
  }
}

export async function request<T>(path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  await connectionGate()
  const tokenUsed = opts.anonymous ? null : accessToken
  let res = await send(path, opts, tokenUsed)

  if (res.status === 401 && !opts.anonymous) {
    // Another request may have refreshed while this one was in flight; then
    // the new token is simply used. Otherwise refresh (shared) and retry once.
    let token: string | null
    if (accessToken && accessToken !== tokenUsed) {
      token = accessToken
    } else {
      token = await refreshAccessToken()
    }
    if (!token) {
      for (const l of sessionLostListeners) l(lastLoss)
      throw new ApiError(401, await parseBody(res))
    }
    await discard(res)
    res = await send(path, opts, token)
  }

  const data = opts.as === 'blob' && res.ok ? await res.blob() : await parseBody(res)
  if (res.status === 304) return { data: null as T, headers: res.headers, status: 304 }
  if (!res.ok) {
    if (res.status === 403 && (data as { code?: string } | null)?.code === 'password_change_required') {
      for (const l of passwordRequiredListeners) l()
    }
    const ra = res.headers.get('Retry-After')
    const retryAfter = ra !== null && ra !== '' && !Number.isNaN(Number(ra)) ? Number(ra) : undefined
    throw new ApiError(res.status, data, retryAfter)
  }
  return { data: data as T, headers: res.headers, status: res.status }
}

export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  return (await request<T>(path, opts)).data
}

export interface Page<T> {
  items: T[]
  total: number
}

/** List endpoints return an array plus the total in X-Total-Count. */
export async function apiPage<T>(path: string, opts: RequestOptions = {}): Promise<Page<T>> {
  const res = await request<T[]>(path, opts)
  const items = Array.isArray(res.data) ? res.data : []
  const header = res.headers.get('X-Total-Count')
  const total = header !== null && !Number.isNaN(Number(header)) ? Number(header) : items.length
  return { items, total }
}

/** Whether the server answers at all (its liveness route); used while offline. */
export async function probeServer(): Promise<boolean> {
  try {
    await fetchTracked(`${API_BASE}/health`, { method: 'GET', cache: 'no-store', credentials: 'same-origin' })
    return true
  } catch {
    return false
  }
}

export interface ClientErrorReport {
  message: string
  route: string
  stack?: string
}

/**
 * Sends a failed screen to the server's log (POST /client-errors). Never
 * signs anyone out: a token the server refuses is refreshed (the shared
 * refresh) and, if that fails, the report goes without one. A report that
 * cannot be sent is dropped.
 */
export async function reportClientError(report: ClientErrorReport): Promise<void> {
  const opts: RequestOptions = { method: 'POST', body: report }
  try {
    const tokenUsed = accessToken
    const res = await send('/client-errors', opts, tokenUsed)
    await discard(res)
    if (res.status !== 401 || !tokenUsed) return
    const fresh = accessToken !== tokenUsed ? accessToken : await refreshAccessToken().catch(() => null)
    await discard(await send('/client-errors', fresh ? opts : { ...opts, anonymous: true }, fresh))
  } catch {
    // Nothing to do: the user already sees the error on screen.
  }
}
