import { reportClientError } from '../api/client'

const MAX = { message: 1000, route: 1000, stack: 4000 }
const sent = new Set<string>()

/**
 * Reports an error a boundary caught to the server's log: the message, the
 * route's path (no query string: it can hold names) and the stack, each
 * shortened. The same error on the same route is sent once per page load;
 * the server limits the rate as well.
 */
export function reportError(error: unknown, pathname: string): void {
  const message =
    (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, MAX.message) ||
    'Unknown error'
  const route = (pathname.startsWith('/') ? pathname : `/${pathname}`).slice(0, MAX.route)
  const key = `${route}\u0000${message}`
  if (sent.has(key) || sent.size >= 20) return
  sent.add(key)
  const stack = error instanceof Error && error.stack ? error.stack.slice(0, MAX.stack) : undefined
  void reportClientError({ message, route, ...(stack ? { stack } : {}) })
}
