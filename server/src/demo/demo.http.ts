import type { FastifyTypebox } from '../http.ts'

/**
 * The demo is made through the service's own HTTP API (in process, by
 * `inject`), so every rule of a real request holds: permissions, stage paths,
 * votes moving proposals on, the events' notifications and audit entries.
 */
export class DemoCaller {
  constructor(
    readonly app: FastifyTypebox,
    readonly token: string | null,
  ) {}

  async call<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<T> {
    const res = await this.app.inject({
      method,
      url: `/api${url}`,
      headers: this.token ? { authorization: `Bearer ${this.token}` } : {},
      ...(body === undefined ? {} : { payload: body as object }),
    })
    if (res.statusCode >= 300) throw new Error(`demo: ${method} ${url} answered ${res.statusCode} ${res.body}`)
    return (res.body ? res.json() : null) as T
  }

  /** The same app without a sign-in (the booking link's pages). */
  anonymous = (): DemoCaller => new DemoCaller(this.app, null)

  get = <T = unknown>(url: string) => this.call<T>('GET', url)
  post = <T = unknown>(url: string, body?: unknown) => this.call<T>('POST', url, body)
  put = <T = unknown>(url: string, body?: unknown) => this.call<T>('PUT', url, body)
}

/** Signs in with the form-encoded password sign-in (docs/api-reference.md §3). */
export async function signIn(app: FastifyTypebox, email: string, password: string): Promise<DemoCaller> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username: email, password }).toString(),
  })
  if (res.statusCode !== 200) throw new Error(`demo: sign-in of ${email} answered ${res.statusCode} ${res.body}`)
  return new DemoCaller(app, res.json().access_token as string)
}

/** The token of a link the service handed out (`…/welcome#<token>`, `…/booking#<token>`). */
export const tokenOf = (url: string): string => url.slice(url.indexOf('#') + 1)
