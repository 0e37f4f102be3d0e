import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { after, before, describe, it } from 'node:test'
import { createTestApp, type TestApp } from '../../test/harness.ts'
import { createUser, login } from '../../test/factories.ts'

const FAVICON_ICO = path.join(import.meta.dirname, '../../../../web/public/favicon.ico')

/** A tiny built client, as web/scripts/precompress.mjs leaves it. */
function fakeDist(): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-delivery-'))
  fs.mkdirSync(path.join(dist, 'assets'))
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Stake</title><div id="root"></div>')
  const js = `export const words = ${JSON.stringify('lorem ipsum dolor sit amet '.repeat(200))};\n`
  fs.writeFileSync(path.join(dist, 'assets', 'index-AbC123.js'), js)
  fs.writeFileSync(path.join(dist, 'assets', 'index-AbC123.js.br'), zlib.brotliCompressSync(js))
  fs.writeFileSync(path.join(dist, 'assets', 'index-AbC123.js.gz'), zlib.gzipSync(js))
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>')
  fs.writeFileSync(path.join(dist, 'manifest.webmanifest'), JSON.stringify({ name: 'Stake', start_url: '/' }))
  // The real icon from web/public (Vite copies it into the build as it is).
  fs.copyFileSync(FAVICON_ICO, path.join(dist, 'favicon.ico'))
  return dist
}

describe('delivery: compression and caching', () => {
  const dist = fakeDist()
  let t: TestApp & { close(): Promise<void> }

  before(async () => {
    t = await createTestApp({}, { config: { webDist: dist } })
  })
  after(async () => {
    await t.close()
    fs.rmSync(dist, { recursive: true, force: true })
  })

  it('serves a hashed asset as immutable, precompressed with Brotli when asked', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/assets/index-AbC123.js' })
    assert.equal(plain.statusCode, 200)
    assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable')
    assert.equal(plain.headers['content-encoding'], undefined)
    const br = await t.app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    })
    assert.equal(br.statusCode, 200)
    assert.equal(br.headers['content-encoding'], 'br')
    assert.equal(br.headers['cache-control'], 'public, max-age=31536000, immutable')
    assert.match(String(br.headers['content-type']), /javascript/)
    assert.ok(br.rawPayload.length < plain.rawPayload.length / 5)
    assert.equal(zlib.brotliDecompressSync(br.rawPayload).toString(), plain.body)
    const gz = await t.app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip' },
    })
    assert.equal(gz.headers['content-encoding'], 'gzip')
    assert.equal(zlib.gunzipSync(gz.rawPayload).toString(), plain.body)
  })

  it('answers HEAD and a revalidation of an asset without breaking them', async () => {
    const head = await t.app.inject({
      method: 'HEAD',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'br' },
    })
    assert.equal(head.statusCode, 200)
    assert.equal(head.rawPayload.length, 0)
    // Each encoding is its own file with its own validator.
    const first = await t.app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'br' },
    })
    assert.ok(first.headers.etag)
    const again = await t.app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'if-none-match': String(first.headers.etag), 'accept-encoding': 'br' },
    })
    assert.equal(again.statusCode, 304)
    assert.equal(again.rawPayload.length, 0)
  })

  it('makes index.html and client routes revalidate on every load', async () => {
    for (const url of ['/', '/board', '/index.html']) {
      const res = await t.app.inject({ method: 'GET', url })
      assert.equal(res.statusCode, 200, url)
      assert.equal(res.headers['cache-control'], 'no-cache', url)
      assert.match(res.body, /<div id="root">/, url)
    }
  })

  it('serves the icon and the manifest, and 404s missing files instead of the page', async () => {
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.svg' })
    assert.equal(icon.statusCode, 200)
    assert.match(String(icon.headers['content-type']), /^image\/svg\+xml/)
    const manifest = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' })
    assert.equal(manifest.statusCode, 200)
    assert.match(String(manifest.headers['content-type']), /^application\/manifest\+json/)
    for (const url of ['/assets/missing.js', '/favicon.png', '/robots.txt', '/assets/nested/thing']) {
      const res = await t.app.inject({ method: 'GET', url })
      assert.equal(res.statusCode, 404, url)
      assert.match(String(res.headers['content-type']), /application\/json/, url)
      assert.deepEqual(res.json(), { detail: 'Not found', code: 'not_found' })
    }
  })

  it('serves /favicon.ico as a real icon file (browsers ask for it whatever the page links)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/favicon.ico' })
    assert.equal(res.statusCode, 200)
    assert.match(String(res.headers['content-type']), /^image\/(x-icon|vnd\.microsoft\.icon)/)
    assert.equal(res.headers['cache-control'], 'public, max-age=86400')
    const body = res.rawPayload
    // ICONDIR: reserved 0, type 1 (icon), at least one image; the first entry's data is a PNG.
    assert.equal(body.readUInt16LE(0), 0)
    assert.equal(body.readUInt16LE(2), 1)
    assert.ok(body.readUInt16LE(4) >= 1)
    const offset = body.readUInt32LE(6 + 12)
    assert.deepEqual([...body.subarray(offset, offset + 4)], [0x89, 0x50, 0x4e, 0x47])
    assert.equal(body.readUInt32LE(6 + 8), body.length - offset)
  })

  it('compresses a large API response when asked, identical after decompression; not a small one', async () => {
    const admin = await createUser(t, { permissions: ['users.manage'] })
    for (let i = 0; i < 15; i++) await createUser(t)
    const { token } = await login(t, admin)
    const headers = { authorization: `Bearer ${token}` }
    const plain = await t.app.inject({ method: 'GET', url: '/api/users', headers })
    assert.equal(plain.statusCode, 200)
    assert.ok(plain.rawPayload.length > 1024, `list is ${plain.rawPayload.length} bytes`)
    assert.equal(plain.headers['content-encoding'], undefined)
    const br = await t.app.inject({
      method: 'GET',
      url: '/api/users',
      headers: { ...headers, 'accept-encoding': 'br' },
    })
    assert.equal(br.headers['content-encoding'], 'br')
    assert.equal(br.headers['cache-control'], 'no-store')
    assert.deepEqual(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString()), plain.json())
    const gz = await t.app.inject({
      method: 'GET',
      url: '/api/users',
      headers: { ...headers, 'accept-encoding': 'gzip' },
    })
    assert.equal(gz.headers['content-encoding'], 'gzip')
    assert.deepEqual(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString()), plain.json())

    const small = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { ...headers, 'accept-encoding': 'br, gzip' },
    })
    assert.equal(small.statusCode, 200)
    assert.ok(small.rawPayload.length < 1024)
    assert.equal(small.headers['content-encoding'], undefined)
    assert.equal(small.json().email, admin.email)
  })

  it('keeps error bodies readable JSON under compression', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/users', headers: { 'accept-encoding': 'br, gzip' } })
    assert.equal(res.statusCode, 401)
    assert.equal(res.headers['content-encoding'], undefined)
    assert.equal(typeof res.json().detail, 'string')
  })
})
