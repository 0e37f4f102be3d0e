import assert from 'node:assert/strict'
import zlib from 'node:zlib'
import { describe, it } from 'node:test'
import { useWebApp } from '../../test/web-dist.ts'

describe('serving the web client', () => {
  const t = useWebApp({ 'assets/app.js': 'console.log(1)' })

  it('serves index.html at / and at client routes, the built assets as files', async () => {
    for (const url of ['/', '/board', '/proposals/12', '/manage/callings?page=2', '/signin']) {
      const res = await t.app.inject({ method: 'GET', url })
      assert.equal(res.statusCode, 200, url)
      assert.match(String(res.headers['content-type']), /text\/html/, url)
      assert.match(res.body, /<div id="root">/)
    }
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app.js' })
    assert.equal(asset.statusCode, 200)
    assert.match(String(asset.headers['content-type']), /javascript/)
  })

  it('never answers API paths with the client page', async () => {
    for (const url of [
      '/api/nothing',
      '/users/abc/def',
      '/callings/1/2/3/4',
      '/calling-kanban/nope',
      '/docs/nothing',
      '/wards/1/x',
    ]) {
      const res = await t.app.inject({ method: 'GET', url })
      assert.notEqual(res.statusCode, 200, url)
      assert.match(String(res.headers['content-type']), /application\/json/, url)
    }
    const post = await t.app.inject({ method: 'POST', url: '/board' })
    assert.equal(post.statusCode, 404)
    assert.deepEqual(post.json(), { detail: 'Not found', code: 'not_found' })
  })
})

describe('serving a page rendered at build time', () => {
  const t = useWebApp({
    'signin.en.html': '<!doctype html><html lang="en"><div id="root"><form>Sign in</form></div>',
    'signin.es.html': '<!doctype html><html lang="es"><div id="root"><form>Iniciar sesión</form></div>',
  })
  const get = (url: string, language?: string) =>
    t.app.inject({ method: 'GET', url, headers: language === undefined ? {} : { 'accept-language': language } })

  it('answers its route with the page in the browser language, and says the answer varies with it', async () => {
    const cases: [string | undefined, string][] = [
      ['es-ES,es;q=0.9,en;q=0.8', 'es'],
      ['en-US,en;q=0.9', 'en'],
      ['fr-FR,fr;q=0.9,es;q=0.5,en;q=0.4', 'es'],
      ['en;q=0.3, es;q=0.7', 'es'],
      ['es;q=0, en', 'en'],
      ['de', 'en'],
      [undefined, 'en'],
    ]
    for (const [header, language] of cases) {
      const res = await get('/signin?next=%2Fboard', header)
      assert.equal(res.statusCode, 200, header)
      assert.match(String(res.headers['content-type']), /text\/html/)
      assert.equal(res.headers['content-language'], language, header)
      assert.match(res.body, new RegExp(`<html lang="${language}">`), header)
      assert.match(String(res.headers.vary), /accept-language/i)
      assert.equal(res.headers['cache-control'], 'no-cache')
    }
  })

  it('answers every other client route with index.html, whatever the language', async () => {
    for (const url of ['/', '/board', '/signin/more']) {
      const res = await get(url, 'es')
      assert.equal(res.statusCode, 200, url)
      assert.doesNotMatch(res.body, /<form>/, url)
      assert.equal(res.headers['content-language'], undefined, url)
    }
  })
})

describe('serving a page compressed at build time', () => {
  // As web/scripts/precompress.mjs leaves them: each page with its .br and .gz beside it.
  const page = (lang: string) =>
    `<!doctype html><html lang="${lang}"><div id="root"><form>${'Sign in '.repeat(400)}</form></div>`
  const index = `<!doctype html><title>Stake</title><div id="root"></div>${'<link rel="modulepreload">'.repeat(100)}`
  const withEncodings = (name: string, text: string) => ({
    [name]: text,
    [`${name}.br`]: zlib.brotliCompressSync(text),
    [`${name}.gz`]: zlib.gzipSync(text),
  })
  const t = useWebApp({ ...withEncodings('index.html', index), ...withEncodings('signin.en.html', page('en')) })
  const get = (url: string, encoding?: string) =>
    t.app.inject({ method: 'GET', url, headers: encoding === undefined ? {} : { 'accept-encoding': encoding } })

  it('sends the Brotli or gzip file the build wrote, as the browser accepts, and says the answer varies with it', async () => {
    for (const [url, text] of [
      ['/signin', page('en')],
      ['/board', index],
    ] as const) {
      const br = await get(url, 'gzip, deflate, br, zstd')
      assert.equal(br.statusCode, 200, url)
      assert.equal(br.headers['content-encoding'], 'br', url)
      assert.match(String(br.headers['content-type']), /text\/html/, url)
      assert.equal(br.headers['cache-control'], 'no-cache')
      assert.ok(br.rawPayload.length < text.length / 4, `${url}: ${br.rawPayload.length} bytes of ${text.length}`)
      assert.equal(zlib.brotliDecompressSync(br.rawPayload).toString(), text)
      assert.match(String(br.headers.vary), /accept-encoding/i)

      const gz = await get(url, 'gzip')
      assert.equal(gz.headers['content-encoding'], 'gzip', url)
      assert.equal(zlib.gunzipSync(gz.rawPayload).toString(), text)

      for (const header of [undefined, 'identity', 'br;q=0, gzip;q=0', 'compress']) {
        const plain = await get(url, header)
        assert.equal(plain.statusCode, 200, `${url} ${header}`)
        assert.equal(plain.headers['content-encoding'], undefined, `${url} ${header}`)
        assert.equal(plain.body, text, `${url} ${header}`)
      }
    }
    const signIn = await get('/signin', 'br')
    assert.match(String(signIn.headers.vary), /accept-language/i, 'the language still decides the page')
    assert.equal(signIn.headers['content-language'], 'en')
  })

  it('answers HEAD with the headers alone', async () => {
    const head = await t.app.inject({ method: 'HEAD', url: '/signin', headers: { 'accept-encoding': 'br' } })
    assert.equal(head.statusCode, 200)
    assert.equal(head.headers['content-encoding'], 'br')
    assert.equal(head.rawPayload.length, 0)
  })
})
