import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../../test/harness.ts'

/** What client generators and `npm run lint:openapi` (Redocly's recommended rules) need of the document. */
describe('the OpenAPI document as client generators read it', () => {
  const t = useTestApp()
  const operations: { label: string; path: string; op: any }[] = []

  before(async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' })
    assert.equal(res.statusCode, 200)
    for (const [path, methods] of Object.entries<Record<string, any>>(res.json().paths)) {
      for (const [method, op] of Object.entries<any>(methods)) {
        operations.push({ label: `${method.toUpperCase()} ${path}`, path, op })
      }
    }
    assert.ok(operations.length > 50)
  })

  it('gives every operation a unique camelCase operationId', () => {
    const seen = new Map<string, string>()
    for (const { label, op } of operations) {
      assert.match(String(op.operationId), /^[a-z][a-zA-Z0-9]+$/, `${label} has a camelCase operationId`)
      assert.ok(!seen.has(op.operationId), `${label} and ${seen.get(op.operationId)} share ${op.operationId}`)
      seen.set(op.operationId, label)
    }
  })

  it("declares every operation's security from its route's auth: [] when public, the bearer token otherwise", () => {
    for (const { label, op } of operations) assert.ok(Array.isArray(op.security), `${label} declares security`)
    const security = (label: string) => operations.find((o) => o.label === label)?.op.security
    assert.deepEqual(security('GET /api/health'), [])
    assert.deepEqual(security('POST /api/auth/login'), [])
    assert.deepEqual(security('GET /api/wards'), [])
    assert.deepEqual(security('GET /api/speaking/feed/{file}'), [])
    assert.deepEqual(security('GET /api/callings'), [{}, { bearerAuth: [] }], 'optional: anonymous or signed in')
    assert.deepEqual(security('POST /api/wards'), [{ bearerAuth: [] }])
    assert.deepEqual(security('GET /api/auth/me'), [{ bearerAuth: [] }])
  })

  it('documents a success and a client-error response on every operation', () => {
    for (const { label, op } of operations) {
      const statuses = Object.keys(op.responses)
      assert.ok(
        statuses.some((s) => s.startsWith('2')),
        `${label} documents a 2xx`,
      )
      assert.ok(
        statuses.some((s) => s.startsWith('4')),
        `${label} documents a 4xx`,
      )
    }
  })

  it('has no two paths that differ only by the names of their parameters', () => {
    const shapes = new Map<string, string>()
    for (const path of new Set(operations.map((o) => o.path))) {
      const shape = path.replace(/\{[^}]+\}/g, '{}')
      assert.ok(!shapes.has(shape), `${path} and ${shapes.get(shape)} are the same path`)
      shapes.set(shape, path)
    }
  })
})
