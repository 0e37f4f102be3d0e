/**
 * Fetch for the data layer: one tracked `fetch` (every request reports whether
 * the server was reached), the offline gate, URLs and bodies, and reading
 * answers. It knows nothing of sessions: a token is handed in.
 */
import { API_BASE } from '@stake/contract/routes'
import { ApiError } from './errors'

const networkListeners = new Set<(reached: boolean) => void>()

/**
 * Called after every request with whether the server was reached at all
 * (any HTTP answer counts; a failed fetch does not). The connection banner
 * (src/resilience/connection.ts) listens.
 */
export function onNetworkResult(listener: (reached: boolean) => void): () => void {
  networkListeners.add(listener)
  return () => networkListeners.delete(listener)
}

/** null while requests may go out; otherwise a promise that resolves on recovery. */
let connectionGate: () => Promise<void> | null = () => null

/**
 * While the app knows it is offline, requests wait at this gate and go out
 * on recovery (so a change made offline is sent later, not lost). A request
 * that fails in flight is not resent: it may have reached the server; its
 * page says it was not recorded.
 */
export function setConnectionGate(gate: () => Promise<void> | null): void {
  connectionGate = gate
}

/** Changes (any method but GET) waiting at the gate: the offline banner says how many will be sent. */
let waitingChanges = 0
const waitingListeners = new Set<() => void>()

export function onWaitingChanges(listener: () => void): () => void {
  waitingListeners.add(listener)
  return () => waitingListeners.delete(listener)
}

export const waitingChangeCount = (): number => waitingChanges

function countWaiting(delta: number): void {
  waitingChanges += delta
  for (const l of waitingListeners) l()
}

function networkResult(reached: boolean): void {
  for (const l of networkListeners) l(reached)
}

/** One `fetch` for the whole module, so every request reports whether it got through. */
export async function fetchTracked(url: string, init: RequestInit): Promise<Response> {
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

/** Resolves once requests may go out (at once unless the app knows it is offline). */
export async function connectionReady(method: RequestOptions['method'] = 'GET'): Promise<void> {
  const wait = connectionGate()
  if (!wait) return
  if (method === 'GET') return wait
  countWaiting(1)
  try {
    await wait
  } finally {
    countWaiting(-1)
  }
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

export async function send(path: string, opts: RequestOptions, token: string | null): Promise<Response> {
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

export async function parseBody(res: Response): Promise<unknown> {
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

export interface Page<T> {
  items: T[]
  total: number
}

/** List endpoints return an array plus the total in X-Total-Count. */
export function readPage<T>(res: ApiResponse<T[]>): Page<T> {
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
