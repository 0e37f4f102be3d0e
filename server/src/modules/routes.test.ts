import assert from 'node:assert/strict'
import fs from 'node:fs'
import { describe, it } from 'node:test'
import { API_BASE, API_PATH, API_SEGMENTS } from '@stake/contract/routes'
import { useTestApp } from '../test/harness.ts'

/**
 * The API's paths come from one list (packages/contract/src/routes.ts): the
 * server mounts its modules by it, keeps its page fallback and root aliases
 * clear of it, and the service worker never answers one of its paths with
 * the app shell. These tests hold the list to the routes really registered.
 */
describe("the API's route prefixes, from the contract's one list", () => {
  const t = useTestApp()
  /** Served beside the modules, not by a route under API_BASE. */
  const besideModules = new Set([API_BASE.slice(1), 'docs', 'openapi.json'])

  /** Every registered path, rebuilt from Fastify's route tree (a child line adds to its parent's path). */
  const registeredPaths = () => {
    const paths: string[] = []
    const stack: string[] = []
    for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
      const at = line.indexOf('── ')
      if (at < 0) continue
      const depth = (at - 1) / 4
      const part = line.slice(at + 3).replace(/ \(.*$/, '')
      stack[depth] = (depth > 0 ? stack[depth - 1]! : '') + part
      paths.push(stack[depth]!)
    }
    return paths
  }

  const registeredSegments = () => {
    const under = registeredPaths().filter((p) => p.startsWith(`${API_BASE}/`))
    assert.ok(under.length > 50, `found only ${under.length} routes under ${API_BASE}`)
    return new Set(under.map((p) => p.split('/')[2]!))
  }

  it('names the first segment of every route under /api', () => {
    const unlisted = [...registeredSegments()].filter((segment) => !API_SEGMENTS.has(segment))
    assert.deepEqual(unlisted, [], `routes whose first segment API_SEGMENTS leaves out: ${unlisted.join(', ')}`)
  })

  it('names no segment that no route uses', () => {
    const registered = registeredSegments()
    const unused = [...API_SEGMENTS].filter((segment) => !besideModules.has(segment) && !registered.has(segment))
    assert.deepEqual(unused, [], `segments of API_SEGMENTS with no route: ${unused.join(', ')}`)
  })

  it('answers a root alias and /api alike, and the page fallback never takes an API path', async () => {
    for (const url of ['/health', '/api/health', '/wards', '/api/wards']) {
      const res = await t.app.inject({ method: 'GET', url })
      assert.equal(res.statusCode, 200, url)
      assert.match(String(res.headers['content-type']), /application\/json/, url)
    }
  })

  it("API_PATH (the service worker's deny-list) takes every API path and no page of the client", () => {
    for (const segment of API_SEGMENTS) {
      assert.ok(API_PATH.test(`/${segment}`), segment)
      assert.ok(API_PATH.test(`/${segment}/1/x`), segment)
    }
    for (const page of ['/', '/board', '/proposals/3', '/apiary', '/wardsx', '/openapi-json', '/profile'])
      assert.ok(!API_PATH.test(page), page)
    const worker = fs.readFileSync(new URL('../../../web/src/sw.ts', import.meta.url), 'utf8')
    assert.match(worker, /denylist: \[API_PATH\b/, 'web/src/sw.ts denies API_PATH')
  })
})
