import assert from 'node:assert/strict'
import zlib from 'node:zlib'
import { describe, it } from 'node:test'
import { useWebApp } from '../../test/web-dist.ts'

/**
 * The installable client (docs/api-reference.md §13): the service worker and the web-app
 * manifest keep their names from build to build, so they must be revalidated
 * on every request, or browsers would not see a deploy for a day.
 */
describe('serving the service worker and the web-app manifest', () => {
  const worker = `self.addEventListener('fetch', () => {}) // ${'padding '.repeat(200)}`
  const t = useWebApp({
    'assets/app-1a2b3c.js': 'console.log(1)',
    ...Object.fromEntries(
      ['sw.js', 'registerSW.js', 'workbox-5f4e3d2c.js'].flatMap((name) => [
        [name, worker],
        [`${name}.br`, zlib.brotliCompressSync(worker)],
      ]),
    ),
    'manifest.webmanifest': JSON.stringify({ name: 'Stake', start_url: '/' }),
    'icon-192.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  })

  it('serves sw.js, registerSW.js and the Workbox file as JavaScript with Cache-Control: no-cache', async () => {
    for (const url of ['/sw.js', '/registerSW.js', '/workbox-5f4e3d2c.js']) {
      for (const encoding of ['identity', 'br']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } })
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
    const manifest = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' })
    assert.equal(manifest.statusCode, 200)
    assert.match(String(manifest.headers['content-type']), /^application\/manifest\+json/)
    assert.equal(manifest.headers['cache-control'], 'no-cache')
    assert.equal(manifest.json().start_url, '/')

    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-1a2b3c.js' })
    assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable')
    const icon = await t.app.inject({ method: 'GET', url: '/icon-192.png' })
    assert.equal(icon.headers['cache-control'], 'public, max-age=86400')
  })

  it('answers a missing worker file with the JSON 404, never the client page (a browser would register HTML)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sw-old.js' })
    assert.equal(res.statusCode, 404)
    assert.match(String(res.headers['content-type']), /application\/json/)
  })
})
