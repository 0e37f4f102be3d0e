import assert from 'node:assert/strict'
import type http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import { describe, it } from 'node:test'
import type { InjectOptions } from 'fastify'
import { signedIn } from '../test/factories.ts'
import { useTestApp } from '../test/harness.ts'

interface Answer {
  statusCode: number
  headers: http.IncomingHttpHeaders | Record<string, unknown>
  body: string
}

/**
 * Every error is in the contract's shape (docs/api-reference.md §2):
 * `{"detail": string, "code"?: string}`, or a 422's list of `{loc, msg, type}`
 * — also the errors the framework itself meets (router, body parser, Node's
 * HTTP parser), never Fastify's `{error, code: "FST_…", message}`.
 */
function assertShape(res: Answer, status: number, what: string) {
  assert.equal(res.statusCode, status, `${what}: ${res.statusCode} ${res.body.slice(0, 300)}`)
  assert.match(String(res.headers['content-type']), /^application\/json/, what)
  const body = JSON.parse(res.body) as Record<string, unknown>
  assert.ok(!res.body.includes('FST_'), `${what}: a framework code leaks: ${res.body.slice(0, 300)}`)
  if (status === 422) {
    assert.deepEqual(Object.keys(body), ['detail'], what)
    assert.ok(Array.isArray(body.detail) && body.detail.length > 0, what)
    for (const e of body.detail as Record<string, unknown>[]) {
      assert.deepEqual(Object.keys(e).sort(), ['loc', 'msg', 'type'], what)
      assert.ok(Array.isArray(e.loc) && ['body', 'query', 'path', 'header'].includes(e.loc[0] as string), what)
    }
    return
  }
  for (const key of Object.keys(body)) assert.ok(['detail', 'code'].includes(key), `${what}: an extra key ${key}`)
  assert.equal(typeof body.detail, 'string', what)
  if ('code' in body) assert.equal(typeof body.code, 'string', what)
}

describe('every error in the contract shape (§2), framework errors included', () => {
  const t = useTestApp()
  const long = 'a'.repeat(100_000)

  it('a path parameter too long: 414 {detail, code}, under /api and the root alias', async () => {
    for (const url of [
      `/api/auth/invitations/${long}`,
      `/auth/invitations/${long}`,
      `/api/appointments/book/${long}`,
      `/api/speaking/feed/${long}.ics`,
      `/api/users/${'1'.repeat(1000)}`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url })
      assertShape(res, 414, url.slice(0, 40))
      assert.equal(res.json().code, 'uri_too_long')
    }
    const post = await t.app.inject({
      method: 'POST',
      url: `/api/auth/invitations/${long}`,
      payload: { password: 'x' },
    })
    assertShape(post, 414, 'POST')
  })

  it('a path that does not decode: 400 {detail, code}', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/invitations/%E0%A4%A' })
    assertShape(res, 400, 'bad percent-encoding')
    assert.equal(res.json().code, 'bad_url')
  })

  it('body errors: too large 413, malformed or empty JSON 422, wrong content type 422, bad charset', async () => {
    const { token } = await signedIn(t, { permissions: ['proposals.manage'] })
    const auth = { authorization: `Bearer ${token}` }
    const cases: [string, InjectOptions, number][] = [
      [
        'too large',
        {
          method: 'POST',
          url: '/api/webhooks',
          headers: { ...auth, 'content-type': 'application/json' },
          payload: JSON.stringify({ url: 'x'.repeat(2 * 1024 * 1024) }),
        },
        413,
      ],
      [
        'malformed JSON',
        {
          method: 'POST',
          url: '/api/webhooks',
          headers: { ...auth, 'content-type': 'application/json' },
          payload: '{',
        },
        422,
      ],
      [
        'empty JSON',
        { method: 'POST', url: '/api/webhooks', headers: { ...auth, 'content-type': 'application/json' }, payload: '' },
        422,
      ],
      [
        'unsupported content type',
        { method: 'POST', url: '/api/webhooks', headers: { ...auth, 'content-type': 'text/plain' }, payload: 'hello' },
        422,
      ],
      [
        'unknown content type',
        {
          method: 'POST',
          url: '/api/webhooks',
          headers: { ...auth, 'content-type': 'application/x-unknown' },
          payload: '{}',
        },
        422,
      ],
      [
        'login with JSON',
        {
          method: 'POST',
          url: '/api/auth/login',
          headers: { 'content-type': 'application/json' },
          payload: '{"username":"a"}',
        },
        422,
      ],
    ]
    for (const [what, request, status] of cases) assertShape(await t.app.inject(request), status, what)
    const charset = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: { ...auth, 'content-type': 'application/json; charset=latin1' },
      payload: '{}',
    })
    assertShape(charset, 422, 'a charset other than utf-8')
  })

  it('no route, a method a route lacks, a bad token: 404 / 401 in the shape', async () => {
    assertShape(await t.app.inject({ method: 'GET', url: '/api/nothing-here' }), 404, 'no route')
    assertShape(await t.app.inject({ method: 'PATCH', url: '/api/wards' }), 404, 'no such method')
    assertShape(
      await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: 'Bearer x' } }),
      401,
      'bad token',
    )
  })

  it("over a real socket: Node's own refusals (URI or headers too large, a malformed request) in the shape", async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = t.app.server.address() as AddressInfo
    const send = (raw: string) =>
      new Promise<Answer>((resolve, reject) => {
        const socket = new net.Socket()
        let data = ''
        socket.on('data', (chunk) => (data += chunk.toString()))
        socket.on('error', () => undefined)
        socket.on('close', () => {
          const [head = '', body = ''] = data.split('\r\n\r\n')
          const [status = '', ...lines] = head.split('\r\n')
          const headers = Object.fromEntries(
            lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
          )
          if (!status) return reject(new Error('no answer'))
          resolve({ statusCode: Number(status.split(' ')[1]), headers, body })
        })
        socket.connect(port, '127.0.0.1', () => socket.end(raw))
      })
    const uri = await send(`GET /api/auth/invitations/${long} HTTP/1.1\r\nHost: x\r\n\r\n`)
    assertShape(uri, 414, 'a URI Node refuses')
    assertShape(await send(`GET /api/wards HTTP/1.1\r\nHost: x\r\nX-Big: ${long}\r\n\r\n`), 431, 'headers too large')
    assertShape(await send('NOT A REQUEST\r\n\r\n'), 400, 'a malformed request')
  })
})
