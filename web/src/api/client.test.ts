/**
 * The token rules written at the top of api/client.ts, tested against a fake fetch:
 * run with `npm run test:unit -w web` (node's test runner through tsx).
 */
import { afterEach, beforeEach, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import {
  api,
  ApiError,
  getAccessToken,
  getIdleTimeout,
  onNetworkResult,
  onSessionLost,
  refreshAccessToken,
  reportClientError,
  setAccessToken,
  startBootRefresh,
  takeBootRefresh,
  takeFirstScreen,
} from './client.ts'

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>
const realFetch = globalThis.fetch
let calls: { url: string; auth: string | null }[] = []

function install(handler: Handler) {
  calls = []
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input)
    const headers = (init.headers ?? {}) as Record<string, string>
    calls.push({ url, auth: headers.Authorization ?? null })
    await new Promise((r) => setTimeout(r, 5))
    return handler(url, init)
  }) as typeof fetch
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } })

describe('api client', () => {
  beforeEach(() => setAccessToken('old'))
  afterEach(() => {
    globalThis.fetch = realFetch
    setAccessToken(null)
  })

  it('refreshes once for many concurrent 401s and retries each request once', async () => {
    install((url, init) => {
      if (url.endsWith('/auth/refresh')) return json(200, { access_token: 'new' })
      const auth = (init.headers as Record<string, string>).Authorization
      return auth === 'Bearer new' ? json(200, { ok: url }) : json(401, { detail: 'Token expired' })
    })
    const results = await Promise.all([api('/a'), api('/b'), api('/c'), api('/d')])
    assert.deepEqual(
      results.map((r) => (r as { ok: string }).ok),
      ['/api/a', '/api/b', '/api/c', '/api/d'],
    )
    assert.equal(calls.filter((c) => c.url.endsWith('/auth/refresh')).length, 1)
    assert.equal(calls.filter((c) => c.auth === 'Bearer new').length, 4)
    assert.equal(getAccessToken(), 'new')
  })

  it('sends the page load’s refresh once, before anyone asks for it; the first taker gets it, later ones a new one', async () => {
    let n = 0
    install((url) => (url.includes('/auth/refresh') ? json(200, { access_token: `t${++n}` }) : json(404, {})))
    startBootRefresh(false)
    startBootRefresh(true)
    await new Promise((r) => setTimeout(r, 20)) // answered before React's first effect takes it
    assert.equal(calls.length, 1, 'sent at once, and once')
    assert.equal(await takeBootRefresh(), 't1')
    assert.equal(calls.length, 1, 'taking it sends nothing more')
    assert.equal(await takeBootRefresh(), 't2', 'a retry refreshes again')
    assert.equal(calls.length, 2)
  })

  it('asks the page load’s refresh for the profile, and the board, the queue, the wards, the stake and its first steps when headed there; what it carried is taken once', async () => {
    const me = { id: 7, fname: 'Ada' }
    const board = { cards: [], people: [], voting: {}, closed: {} }
    const actions = { count: 0, items: [] }
    const wards = [{ id: 1, name: 'Centro', start_time: 600, speaking_sunday: 1, bishop_id: null }]
    const stake = { id: 1, name: 'Kauri', settings_saved: false }
    const setup = { stake: false, wards: false, seats: false, users: false, proposal: false }
    install((url) =>
      url.includes('/auth/refresh')
        ? json(200, {
            access_token: 't',
            ...(url.includes('board') ? { board, board_etag: 'W/"b"', actions, wards, stake, setup } : {}),
            me,
          })
        : json(404, {}),
    )
    startBootRefresh(true)
    assert.equal(await takeBootRefresh(), 't')
    assert.equal(calls[0]!.url, '/api/auth/refresh?include=me,board,actions,wards,stake,setup')
    assert.deepEqual(takeFirstScreen(), { me, board, board_etag: 'W/"b"', actions, wards, stake, setup })
    assert.deepEqual(takeFirstScreen(), {}, 'taken once')
    startBootRefresh(false)
    assert.equal(await takeBootRefresh(), 't')
    assert.equal(calls[1]!.url, '/api/auth/refresh?include=me')
    assert.deepEqual(takeFirstScreen(), {
      me,
      board: undefined,
      board_etag: undefined,
      actions: undefined,
      wards: undefined,
      stake: undefined,
      setup: undefined,
    })
    assert.equal(await refreshAccessToken(), 't')
    assert.equal(calls[2]!.url, '/api/auth/refresh', 'any other refresh asks for the token alone')
    assert.deepEqual(takeFirstScreen(), {}, 'and carries nothing to take')
  })

  it('reports a lost session only when the refresh itself fails', async () => {
    install((url) =>
      url.endsWith('/auth/refresh') ? json(401, { detail: 'Session expired' }) : json(401, { detail: 'Token expired' }),
    )
    let lost = 0
    const off = onSessionLost(() => lost++)
    await assert.rejects(api('/x'), (e: unknown) => e instanceof ApiError && e.status === 401)
    off()
    assert.equal(lost, 1)
    assert.equal(getAccessToken(), null)
  })

  it('keeps the idle timeout of a shared-computer session, and says "idle" when the server ended it for that', async () => {
    install(() => json(200, { access_token: 'shared', token_type: 'bearer', expires_in: 900, idle_timeout: 1800 }))
    assert.equal(await refreshAccessToken(), 'shared')
    assert.equal(getIdleTimeout(), 1800)
    install((url) =>
      url.endsWith('/auth/refresh')
        ? json(401, { detail: 'Session ended', code: 'session_idle' })
        : json(401, { detail: 'Token expired' }),
    )
    const reasons: string[] = []
    const off = onSessionLost((reason) => reasons.push(reason))
    await assert.rejects(api('/x'), (e: unknown) => e instanceof ApiError && e.status === 401)
    install((url) => (url.endsWith('/auth/refresh') ? json(401, { detail: 'Session expired' }) : json(401, {})))
    await assert.rejects(api('/y'))
    off()
    assert.deepEqual(reasons, ['idle', 'ended'])
    assert.equal(getIdleTimeout(), null)
  })

  it('does not refresh for other errors and exposes 422 fields and Retry-After', async () => {
    install(() => json(422, { detail: [{ loc: ['body', 'email'], msg: 'bad email', type: 'format' }] }))
    await assert.rejects(api('/users/', { method: 'POST', body: {} }), (e: unknown) => {
      assert.ok(e instanceof ApiError)
      assert.deepEqual(e.fieldMap(), { email: 'bad email' })
      return true
    })
    assert.equal(calls.length, 1)
    install(() => json(429, { detail: 'Too many attempts' }, { 'Retry-After': '42' }))
    await assert.rejects(api('/auth/login', { method: 'POST', form: {}, anonymous: true }), (e: unknown) => {
      assert.ok(e instanceof ApiError)
      assert.equal(e.retryAfter, 42)
      return true
    })
  })

  it('shares one refresh between simultaneous callers (page load in two places)', async () => {
    install(() => json(200, { access_token: 'fresh' }))
    const [a, b] = await Promise.all([refreshAccessToken(), refreshAccessToken()])
    assert.equal(a, 'fresh')
    assert.equal(b, 'fresh')
    assert.equal(calls.length, 1)
  })

  it('reads or cancels every response body, a failed refresh and a retried 401 included (the browser closes each request)', async () => {
    const responses: Response[] = []
    const keep = (res: Response) => (responses.push(res), res)
    install((url) => {
      if (url.endsWith('/auth/refresh')) return keep(json(401, { detail: 'Session expired or revoked' }))
      return keep(json(401, { detail: 'Token expired' }))
    })
    await assert.rejects(api('/a'), (e: unknown) => e instanceof ApiError && e.status === 401)
    assert.equal(responses.length, 2)
    assert.ok(
      responses.every((r) => r.bodyUsed),
      'every body consumed',
    )

    responses.length = 0
    install((url, init) => {
      if (url.endsWith('/auth/refresh')) return keep(json(200, { access_token: 'new' }))
      const auth = (init.headers as Record<string, string>).Authorization
      return keep(auth === 'Bearer new' ? new Response(null, { status: 204 }) : json(401, { detail: 'Token expired' }))
    })
    await api('/b', { method: 'DELETE' })
    assert.equal(responses.length, 3)
    assert.ok(
      responses.every((r) => r.bodyUsed || r.body === null),
      'every body consumed',
    )
  })

  it('tells listeners whether the server was reached: a failed fetch is false, any HTTP answer true', async () => {
    const seen: boolean[] = []
    const off = onNetworkResult((reached) => seen.push(reached))
    install(() => {
      throw new TypeError('Failed to fetch')
    })
    await assert.rejects(api('/wards/'), (e: unknown) => e instanceof ApiError && e.status === 0)
    install(() => json(500, { detail: 'Internal server error' }))
    await assert.rejects(api('/wards/'), (e: unknown) => e instanceof ApiError && e.status === 500)
    off()
    assert.deepEqual(seen, [false, true])
  })

  it('sends an error report with a refreshed token, or without one when the session is gone, and never signs out', async () => {
    let refreshOk = true
    const sent: { auth: string | null; body: unknown }[] = []
    install((url, init) => {
      if (url.endsWith('/auth/refresh'))
        return refreshOk ? json(200, { access_token: 'new' }) : json(401, { detail: 'Session expired' })
      const auth = (init.headers as Record<string, string>).Authorization ?? null
      sent.push({ auth, body: JSON.parse(String(init.body)) })
      return auth === 'Bearer old' ? json(401, { detail: 'Token expired' }) : new Response(null, { status: 204 })
    })
    let lost = 0
    const off = onSessionLost(() => lost++)
    await reportClientError({ message: 'boom', route: '/board' })
    assert.deepEqual(
      calls.map((c) => c.url),
      ['/api/client-errors', '/api/auth/refresh', '/api/client-errors'],
    )
    assert.deepEqual(
      sent.map((s) => s.auth),
      ['Bearer old', 'Bearer new'],
    )
    assert.deepEqual(sent[1]!.body, { message: 'boom', route: '/board' })

    setAccessToken('old')
    refreshOk = false
    sent.length = 0
    await reportClientError({ message: 'again', route: '/board' })
    assert.deepEqual(
      sent.map((s) => s.auth),
      ['Bearer old', null],
    )
    off()
    assert.equal(lost, 0)
    install(() => {
      throw new TypeError('Failed to fetch')
    })
    await reportClientError({ message: 'offline', route: '/board' }) // dropped, never thrown
  })
})
