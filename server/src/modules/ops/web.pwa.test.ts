import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { after, before, describe, it } from 'node:test'
import { buildApp } from '../../app.ts'
import { parseConfig } from '../../config.ts'
import { createDatabase } from '../../database.ts'
import { migrate } from '../../db/migrate.ts'
import type { FastifyTypebox } from '../../http.ts'
import { TEST_ARGON2 } from '../../test/harness.ts'
import { API_SEGMENTS } from '../index.ts'

/**
 * The installable client (docs/api-reference.md §13): the service worker and the web-app
 * manifest keep their names from build to build, so they must be revalidated
 * on every request, or browsers would not see a deploy for a day.
 */
describe('serving the service worker and the web-app manifest', () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-pwa-'))
  const worker = `self.addEventListener('fetch', () => {}) // ${'padding '.repeat(200)}`
  fs.mkdirSync(path.join(dist, 'assets'))
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Stake</title><div id="root"></div>')
  fs.writeFileSync(path.join(dist, 'assets', 'app-1a2b3c.js'), 'console.log(1)')
  for (const name of ['sw.js', 'registerSW.js', 'workbox-5f4e3d2c.js']) {
    fs.writeFileSync(path.join(dist, name), worker)
    fs.writeFileSync(path.join(dist, `${name}.br`), zlib.brotliCompressSync(worker))
  }
  fs.writeFileSync(path.join(dist, 'manifest.webmanifest'), JSON.stringify({ name: 'Stake', start_url: '/' }))
  fs.writeFileSync(path.join(dist, 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]))
  const database = createDatabase('sqlite::memory:', { fallbackScope: { stakeId: 1 } })
  let app: FastifyTypebox

  before(async () => {
    await migrate(database.db)
    app = await buildApp({
      config: { ...parseConfig({}), argon2: TEST_ARGON2, webDist: dist },
      db: database.db,
      dialect: 'sqlite',
    })
  })
  after(async () => {
    await app.close()
    await database.close()
    fs.rmSync(dist, { recursive: true, force: true })
  })

  it('serves sw.js, registerSW.js and the Workbox file as JavaScript with Cache-Control: no-cache', async () => {
    for (const url of ['/sw.js', '/registerSW.js', '/workbox-5f4e3d2c.js']) {
      for (const encoding of ['identity', 'br']) {
        const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } })
        assert.equal(res.statusCode, 200, url)
        assert.match(String(res.headers['content-type']), /^(text|application)\/javascript/, `${url} ${encoding}`)
        assert.equal(res.headers['cache-control'], 'no-cache', `${url} ${encoding}`)
        if (encoding === 'br') assert.equal(res.headers['content-encoding'], 'br', url)
        const body = encoding === 'br' ? zlib.brotliDecompressSync(res.rawPayload).toString() : res.body
        assert.equal(body, worker, url)
      }
    }
  })

  it('serves the manifest as application/manifest+json with no-cache; hashed assets stay immutable, icons a day', async () => {
    const manifest = await app.inject({ method: 'GET', url: '/manifest.webmanifest' })
    assert.equal(manifest.statusCode, 200)
    assert.match(String(manifest.headers['content-type']), /^application\/manifest\+json/)
    assert.equal(manifest.headers['cache-control'], 'no-cache')
    assert.equal(manifest.json().start_url, '/')

    const asset = await app.inject({ method: 'GET', url: '/assets/app-1a2b3c.js' })
    assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable')
    const icon = await app.inject({ method: 'GET', url: '/icon-192.png' })
    assert.equal(icon.headers['cache-control'], 'public, max-age=86400')
  })

  it('answers a missing worker file with the JSON 404, never the client page (a browser would register HTML)', async () => {
    const res = await app.inject({ method: 'GET', url: '/sw-old.js' })
    assert.equal(res.statusCode, 404)
    assert.match(String(res.headers['content-type']), /application\/json/)
  })
})

describe('the service worker leaves the API alone', () => {
  it("names every API path segment in its deny-list (web/src/sw.ts repeats API_SEGMENTS: the client cannot import the server's)", () => {
    const source = fs.readFileSync(new URL('../../../../web/src/sw.ts', import.meta.url), 'utf8')
    const list = /const SERVER_PATHS =\s*\/\^\\\/\(([^)]+)\)/.exec(source)?.[1]
    assert.ok(list, 'SERVER_PATHS found in web/src/sw.ts')
    const denied = new Set(list.split('|').map((s) => s.replace(/\\/g, '')))
    assert.deepEqual(
      [...API_SEGMENTS].filter((segment) => !denied.has(segment)),
      [],
    )
  })
})
