import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { describe, it, after } from 'node:test'
import { buildApp } from '../../app.ts'
import { parseConfig } from '../../config.ts'
import { createDatabase } from '../../database.ts'
import { migrate } from '../../db/migrate.ts'
import { TEST_ARGON2, TestClock, useTestApp } from '../../test/harness.ts'
import { createUser, login } from '../../test/factories.ts'

describe('OpenAPI and /docs', () => {
  const t = useTestApp()

  it('serves an OpenAPI 3.1 document at /openapi.json listing /api routes only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' })
    assert.equal(res.statusCode, 200)
    const doc = res.json()
    assert.equal(doc.openapi, '3.1.0')
    const paths = Object.keys(doc.paths)
    assert.ok(paths.includes('/api/auth/login'))
    assert.ok(paths.includes('/api/users/{id}/password'))
    assert.ok(
      paths.every((p) => p.startsWith('/api/')),
      'root aliases are hidden',
    )
  })

  it('documents request schemas and error responses on every route', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json()
    for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(methods)) {
        const label = `${method.toUpperCase()} ${path}`
        assert.ok(op.responses['500'], `${label} documents 500`)
        const hasInput = op.requestBody || (op.parameters ?? []).length > 0
        if (hasInput) assert.ok(op.responses['422'], `${label} documents 422`)
        if (path.includes('{')) assert.ok(op.responses['404'], `${label} documents 404`)
        if (op.security?.some((s: object) => 'bearerAuth' in s))
          assert.ok(op.responses['401'] && op.responses['403'], `${label} documents 401/403`)
      }
    }
    assert.ok(doc.paths['/api/users']?.post?.requestBody, 'POST /users has a request body schema')
    assert.ok(doc.paths['/api/auth/login']?.post?.requestBody?.content?.['application/x-www-form-urlencoded'])
  })

  it('serves interactive documentation at /docs', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs' })
    assert.equal(page.statusCode, 200)
    assert.match(String(page.headers['content-type']), /text\/html/)
    assert.match(page.body, /swagger-ui/i)
  })
})

describe('request logging', () => {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean))
      done()
    },
  })
  const database = createDatabase('sqlite::memory:', { fallbackScope: { stakeId: 1 } })
  after(() => database.close())

  it('writes one JSON line per request with a request id, and never tokens, cookies or passwords', async () => {
    await migrate(database.db)
    const app = await buildApp({
      config: { ...parseConfig({}), argon2: TEST_ARGON2 },
      db: database.db,
      dialect: 'sqlite',
      clock: new TestClock(),
      logger: { level: 'info', stream },
    })
    const t = { app, database, clock: new TestClock(), config: parseConfig({}), hasher: undefined as never }
    const { PasswordHasher } = await import('../auth/passwords.ts')
    t.hasher = new PasswordHasher(TEST_ARGON2) as never
    const user = await createUser(t as never)
    const { token, refresh } = await login(t as never, user)
    lines.length = 0
    await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })
    await app.inject({ method: 'GET', url: '/api/auth/refresh', cookies: { refresh_token: refresh } })
    await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `username=${encodeURIComponent(user.email)}&password=${encodeURIComponent(user.password)}`,
    })
    // Any line that carries credentials has them redacted (pino's redact, app.ts).
    app.log.info(
      {
        headers: { authorization: `Bearer ${token}`, cookie: `refresh_token=${refresh}` },
        body: { password: user.password },
      },
      'probe',
    )
    await app.close()
    const probe = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'probe')
    assert.equal(probe.headers.authorization, '[Redacted]')
    assert.equal(probe.headers.cookie, '[Redacted]')
    assert.equal(probe.body.password, '[Redacted]')
    const requestLines = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request')
    assert.equal(requestLines.length, 3)
    for (const line of requestLines) {
      assert.match(line.reqId, /^[0-9a-f-]{36}$/)
      assert.equal(typeof line.status, 'number')
    }
    const all = lines.join('\n')
    assert.ok(!all.includes(token), 'no access token')
    assert.ok(!all.includes(refresh.split('.')[1]!), 'no refresh secret')
    assert.ok(!all.includes(user.password), 'no password')
  })
})
