import type { FastifyRequest } from 'fastify'

/**
 * Login CSRF (S5): another site must not sign the victim's browser into the
 * attacker's account. A browser says where a request comes from: a
 * `Sec-Fetch-Site: cross-site`, or an `Origin` that is neither this service
 * (the scheme and host the request reached) nor one of CORS_ORIGINS, is
 * refused. Requests with neither header (scripts, curl) pass, and so does an
 * origin listed in CORS_ORIGINS (docs/decisions.md).
 */
export function isCrossSite(request: FastifyRequest, allowedOrigins: readonly string[]): boolean {
  const origin = request.headers.origin
  const presented = origin === undefined ? undefined : normalized(origin)
  // An origin the operator listed in CORS_ORIGINS is trusted even from another site.
  if (presented && allowedOrigins.some((allowed) => normalized(allowed) === presented)) return false
  if (request.headers['sec-fetch-site'] === 'cross-site') return true
  if (presented === undefined) return false
  return presented !== normalized(`${request.protocol}://${request.host}`)
}

/** An origin as the URL standard writes it (lower case, no default port); null when it is none ("null", garbage). */
function normalized(origin: string): string | null {
  try {
    const url = new URL(origin)
    return url.origin === 'null' ? null : url.origin
  } catch {
    return null
  }
}
