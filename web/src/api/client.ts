/**
 * HTTP client for the Stake Administration API: the authenticated request,
 * paging and error reporting, over session.ts (tokens, refresh), transport.ts
 * (fetch) and errors.ts (ApiError). Pages and hooks import from here.
 *
 * Security rules (docs/SECURITY.md):
 * - the access token lives only in session.ts's memory (never localStorage or
 *   sessionStorage); the refresh token is an HttpOnly cookie the browser sends
 *   to /api/auth/refresh by itself;
 * - a request answered 401 triggers one refresh, shared by every request that
 *   is waiting at that moment, and is retried once; the caller never sees that
 *   first 401. Only a failed refresh is reported (through onSessionLost) so the
 *   app can show the sign-in screen.
 */

import { ApiError } from './errors'
import { getAccessToken, passwordChangeRequired, refreshAccessToken, sessionLost } from './session'
import {
  connectionReady,
  discard,
  parseBody,
  readPage,
  send,
  type ApiResponse,
  type Page,
  type RequestOptions,
} from './transport'

export { ApiError } from './errors'
export {
  getAccessToken,
  getIdleTimeout,
  onPasswordChangeRequired,
  onSessionLost,
  refreshAccessToken,
  sessionMayExist,
  setAccessToken,
  setSession,
  startBootRefresh,
  takeBootRefresh,
  takeFirstScreen,
} from './session'
export {
  onNetworkResult,
  onWaitingChanges,
  probeServer,
  setConnectionGate,
  waitingChangeCount,
  type ApiResponse,
  type Page,
  type RequestOptions,
} from './transport'

export async function request<T>(path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  await connectionReady(opts.method)
  const tokenUsed = opts.anonymous ? null : getAccessToken()
  let res = await send(path, opts, tokenUsed)

  if (res.status === 401 && !opts.anonymous) {
    // Another request may have refreshed while this one was in flight; then
    // the new token is simply used. Otherwise refresh (shared) and retry once.
    let token: string | null
    const current = getAccessToken()
    if (current && current !== tokenUsed) {
      token = current
    } else {
      token = await refreshAccessToken()
    }
    if (!token) {
      sessionLost()
      throw new ApiError(401, await parseBody(res))
    }
    await discard(res)
    res = await send(path, opts, token)
  }

  const data = opts.as === 'blob' && res.ok ? await res.blob() : await parseBody(res)
  if (res.status === 304) return { data: null as T, headers: res.headers, status: 304 }
  if (!res.ok) {
    if (res.status === 403 && (data as { code?: string } | null)?.code === 'password_change_required') {
      passwordChangeRequired()
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

/** List endpoints return an array plus the total in X-Total-Count. */
export async function apiPage<T>(path: string, opts: RequestOptions = {}): Promise<Page<T>> {
  return readPage(await request<T[]>(path, opts))
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
    const tokenUsed = getAccessToken()
    const res = await send('/client-errors', opts, tokenUsed)
    await discard(res)
    if (res.status !== 401 || !tokenUsed) return
    const current = getAccessToken()
    const fresh = current !== tokenUsed ? current : await refreshAccessToken().catch(() => null)
    await discard(await send('/client-errors', fresh ? opts : { ...opts, anonymous: true }, fresh))
  } catch {
    // Nothing to do: the user already sees the error on screen.
  }
}
