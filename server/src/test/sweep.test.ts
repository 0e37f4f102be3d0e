import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { InjectOptions } from 'fastify'
import { useTestApp } from './harness.ts'
import { ALL_PERMISSIONS, login, createUser, seat } from './factories.ts'

/**
 * Sends malformed bodies, wrong types, odd path ids and odd query values to
 * every documented route, as an all-permissions user and anonymously, and
 * asserts that nothing answers 5xx (docs/api-reference.md §2: no input produces a 500).
 */
describe('malformed-input sweep over every route', () => {
  const t = useTestApp()

  const ODD_IDS = ['0', '-1', 'abc', '99999999999999999999', '1.5', '%00', "1'%20OR%201=1", '2147483648', '1e3', '1']
  const ODD_BODIES: { payload: string; type: string }[] = [
    { payload: '{"a":', type: 'application/json' },
    { payload: '[]', type: 'application/json' },
    { payload: '5', type: 'application/json' },
    { payload: '"text"', type: 'application/json' },
    { payload: 'null', type: 'application/json' },
    { payload: '', type: 'application/json' },
    { payload: 'a=1&b=2', type: 'application/x-www-form-urlencoded' },
    { payload: 'plain', type: 'text/plain' },
    { payload: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}', type: 'application/json' },
  ]
  const WRONG_TYPES = [[], {}, 'x', -1, 0, 1e308, true, null, 'x'.repeat(10_000)]
  const HUGE_QUERY =
    '?limit=99999999999999999999&offset=99999999999999999999&year=99999999999&month=99999999999&ward_id=99999999999999&q=' +
    'x'.repeat(5000)
  const ODD_QUERY =
    '?limit=abc&offset=-1&q=%00&approved=maybe&year=x&month=13&from_stage=zzz&interviewer_id=0&completion_date=yesterday&all=perhaps&active=2&high_councilor_id=-4&is_public=x&sort=drop&stage=nope&ward_id=1.5&scheduled_for=%FF'

  function routes(): { method: string; path: string }[] {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> }
    const list = []
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        if (['get', 'post', 'put', 'patch', 'delete'].includes(method))
          list.push({ method: method.toUpperCase(), path })
      }
    }
    return list
  }

  const fill = (path: string, id: string) => path.replace(/\{[^}]+\}/g, id)

  it('covers the routes of every module', () => {
    const paths = routes().map((r) => r.path)
    assert.ok(paths.length >= 12, `found ${paths.length} routes`)
    for (const prefix of ['/api/auth/', '/api/users'])
      assert.ok(
        paths.some((p) => p.startsWith(prefix)),
        prefix,
      )
  })

  it('answers every malformed request with a status below 500', async () => {
    const admin = await createUser(t, { permissions: ALL_PERMISSIONS })
    await seat(t, 'stake_president', admin.id)
    const { token } = await login(t, admin)
    const failures: string[] = []
    const send = async (options: InjectOptions, label: string) => {
      for (const auth of [token, null]) {
        const res = await t.app.inject({
          ...options,
          headers: { ...(options.headers as object), ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
        })
        if (res.statusCode >= 500)
          failures.push(`${res.statusCode} ${label} ${auth ? 'signed-in' : 'anonymous'}: ${res.body.slice(0, 200)}`)
        if (res.statusCode === 422) {
          const body = res.json()
          if (
            !Array.isArray(body.detail) ||
            !body.detail.every(
              (d: { loc: unknown; msg: unknown; type: unknown }) =>
                Array.isArray(d.loc) && typeof d.msg === 'string' && typeof d.type === 'string',
            )
          ) {
            failures.push(`bad 422 body for ${label}: ${res.body.slice(0, 200)}`)
          }
        }
      }
    }
    for (const route of routes()) {
      if (route.path === '/api/auth/logout') continue // would end the sweep's own session
      const method = route.method as InjectOptions['method']
      for (const id of ODD_IDS)
        await send({ method, url: fill(route.path, id) + ODD_QUERY }, `${route.method} ${route.path} id=${id}`)
      await send({ method, url: fill(route.path, '1') + HUGE_QUERY }, `${route.method} ${route.path} huge query values`)
      await send(
        { method, url: fill(route.path, '1') + '?offset=2147483647&limit=200' },
        `${route.method} ${route.path} largest offset`,
      )
      if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method)) {
        const url = fill(route.path, '1')
        for (const body of ODD_BODIES) {
          await send(
            { method, url, payload: body.payload, headers: { 'content-type': body.type } },
            `${route.method} ${url} body=${body.payload.slice(0, 20)}`,
          )
        }
        const props = [
          'name',
          'email',
          'fname',
          'lname',
          'user_id',
          'ward_id',
          'start_time',
          'bishop_id',
          'permissions',
          'max_slots',
          'is_public',
          'active',
          'password',
          'new_password',
          'old_password',
          'proposal_id',
          'commenter_id',
          'comment_text',
          'spouse_name',
          'proposed_calling',
          'submitter',
          'is_release',
          'reason',
          'high_councilor_id',
          'month',
          'year',
          'topic',
          'reference',
        ]
        for (const wrong of WRONG_TYPES) {
          const payload = Object.fromEntries(props.map((p) => [p, wrong]))
          await send({ method, url, payload }, `${route.method} ${url} fields=${JSON.stringify(wrong).slice(0, 20)}`)
        }
      }
    }
    assert.deepEqual(failures, [])
  })

  it('refuses bodies over 1 MiB with 413 and the contract body shape', async () => {
    const admin = await createUser(t, { permissions: ALL_PERMISSIONS })
    const { token } = await login(t, admin)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      payload: JSON.stringify({ email: 'x'.repeat(1024 * 1024 + 10) }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    })
    assert.equal(res.statusCode, 413)
    assert.equal(typeof res.json().detail, 'string')
  })

  it('treats malformed JSON as a 422 json_invalid at loc [body]', async () => {
    const admin = await createUser(t, { permissions: ALL_PERMISSIONS })
    const { token } = await login(t, admin)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      payload: '{"email":',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    })
    assert.equal(res.statusCode, 422)
    assert.deepEqual(res.json(), { detail: [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }] })
  })

  it('lists path errors at loc [path, <name>] and query errors at loc [query, <name>]', async () => {
    const admin = await createUser(t, { permissions: ALL_PERMISSIONS })
    const { token } = await login(t, admin)
    const headers = { authorization: `Bearer ${token}` }
    const path = await t.app.inject({ method: 'GET', url: '/api/users/abc', headers })
    assert.equal(path.statusCode, 422)
    assert.deepEqual(path.json().detail[0].loc, ['path', 'id'])
    const query = await t.app.inject({ method: 'GET', url: '/api/users?limit=x&offset=-2', headers })
    assert.equal(query.statusCode, 422)
    assert.deepEqual(
      query
        .json()
        .detail.map((d: { loc: string[] }) => d.loc.join('.'))
        .sort(),
      ['query.limit', 'query.offset'],
    )
  })
})
