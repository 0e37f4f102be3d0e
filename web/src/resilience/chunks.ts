/**
 * Loading a page's code (its lazy chunk) without ever leaving a blank page.
 *
 * A failed download is retried with backoff (waiting for the browser to be
 * online first). When it still fails, the client asks the server for the
 * current index.html: if that names another entry script, a new version was
 * deployed and the old chunk names are gone, so the page reloads itself once
 * onto the new version. A sessionStorage marker with a time window keeps that
 * to one reload, so a broken deploy cannot make the page reload in a loop;
 * then, as for any other failure, the error boundary explains and offers
 * "Try again" and "Reload".
 */

/** Waits before each retry, in ms (3 retries: about 4.5 s in all). */
const RETRY_DELAYS = [500, 1000, 3000]
const RELOAD_MARKER = 'stake.reloadedForNewVersion'
/** A second automatic reload within this time is refused. */
export const RELOAD_WINDOW_MS = 5 * 60_000

/** A page's code could not be loaded; `newVersion` when a reload would get a newer build. */
export class ChunkLoadError extends Error {
  constructor(
    readonly cause: unknown,
    readonly newVersion: boolean,
  ) {
    super(cause instanceof Error ? cause.message : String(cause))
    this.name = 'ChunkLoadError'
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms))

/** Resolves at once when the browser says it is online, else at the next `online` event. */
function waitUntilOnline(): Promise<void> {
  // Node 21+ has a `navigator` without `onLine` (and no window): only a browser that says offline waits.
  if (typeof window === 'undefined' || typeof navigator === 'undefined' || navigator.onLine !== false) {
    return Promise.resolve()
  }
  return new Promise((resolve) => window.addEventListener('online', () => resolve(), { once: true }))
}

export async function withRetry<T>(
  load: () => Promise<T>,
  delays: readonly number[] = RETRY_DELAYS,
  wait = sleep,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await load()
    } catch (err) {
      if (attempt >= delays.length) throw err
      await wait(delays[attempt]!)
      await waitUntilOnline()
    }
  }
}

const entryOf = (doc: Document): string | null =>
  doc.querySelector('script[type="module"][src]')?.getAttribute('src') ?? null

/** True when the server's index.html names another entry script than the one running. */
async function newVersionAvailable(): Promise<boolean> {
  const running = entryOf(document)
  if (!running) return false
  try {
    const res = await fetch('/index.html', { cache: 'no-store', credentials: 'same-origin' })
    if (!res.ok) return false
    const latest = entryOf(new DOMParser().parseFromString(await res.text(), 'text/html'))
    return latest !== null && latest !== running
  } catch {
    return false
  }
}

/** The decision, apart from the browser: reload unless one happened within the window. */
export function mayReload(lastReloadAt: string | null, now: number): boolean {
  const at = Number(lastReloadAt)
  return !(lastReloadAt && Number.isFinite(at) && now - at >= 0 && now - at < RELOAD_WINDOW_MS)
}

/** Reloads the page once per window; false when refused (or storage is unavailable). */
function reloadOnce(): boolean {
  try {
    if (!mayReload(sessionStorage.getItem(RELOAD_MARKER), Date.now())) return false
    sessionStorage.setItem(RELOAD_MARKER, String(Date.now()))
  } catch {
    return false // without the marker a reload could loop
  }
  window.location.reload()
  return true
}

/** Loads a page's module: retries, then a reload onto a new version, then ChunkLoadError. */
export async function loadChunk<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await withRetry(load)
  } catch (err) {
    const newVersion = await newVersionAvailable()
    // The page is going away: keep showing the loading state until it does.
    if (newVersion && reloadOnce()) return new Promise<T>(() => {})
    throw new ChunkLoadError(err, newVersion)
  }
}
