import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { negotiate } from '@fastify/accept-negotiator'
import compress from '@fastify/compress'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

interface WebOptions {
  /** The built client (web/dist); null or a folder without index.html serves no client. */
  webDist: string | null
  /** First path segments the API owns: never answered with the client's page. */
  apiSegments: ReadonlySet<string>
}

/** Below this many bytes a compressed body saves less than the work costs. */
const COMPRESS_THRESHOLD = 1024
/** Vite names built files by content hash: they never change under their name. */
const IMMUTABLE = 'public, max-age=31536000, immutable'
/**
 * Files at the client's root whose names never change but whose content does
 * with each build: the service worker (and its registration or Workbox
 * runtime, should a build emit them) and the web-app manifest. Browsers must
 * ask for them again on every check (no-cache), or a deploy stays unseen.
 */
const REVALIDATED = /^(sw\.js|registerSW\.js|workbox-[\w.-]+\.js|manifest\.webmanifest)(\.br|\.gz)?$/
/** A path that names a file (has an extension) or lies under /assets is never a client route. */
const FILE_LIKE = /^\/assets\/|\.[A-Za-z0-9]+$/
/** A page rendered at build time, in one language (web/scripts/prerender.mjs): `<name>.<language>.html`. */
const PRERENDERED = /^([a-z][a-z-]*)\.([a-z]{2})\.html$/

/** The encodings web/scripts/precompress.mjs writes beside each compressible file, by preference, and their files' endings. */
const PRECOMPRESSED = { br: '.br', gzip: '.gz' } as const
type Encoding = keyof typeof PRECOMPRESSED

/** A page of the built client: its bytes, and the same bytes compressed at build time where the build wrote them. */
interface Page {
  identity: Buffer
  encoded: Partial<Record<Encoding, Buffer>>
}

function readPage(file: string): Page {
  const encoded: Page['encoded'] = {}
  for (const [encoding, ending] of Object.entries(PRECOMPRESSED) as [Encoding, string][]) {
    if (fs.existsSync(file + ending)) encoded[encoding] = fs.readFileSync(file + ending)
  }
  return { identity: fs.readFileSync(file), encoded }
}

/** The client routes rendered at build time: route → language → page; the first language found for a route is its default. */
type Prerendered = Map<string, Map<string, Page>>

function readPrerendered(dist: string): Prerendered {
  const pages: Prerendered = new Map()
  for (const file of fs.readdirSync(dist).sort()) {
    const match = PRERENDERED.exec(file)
    if (!match) continue
    const route = `/${match[1]}`
    const byLanguage = pages.get(route) ?? new Map<string, Page>()
    byLanguage.set(match[2]!, readPage(path.join(dist, file)))
    pages.set(route, byLanguage)
  }
  return pages
}

/**
 * A page in the best encoding the browser accepts, compressed at build time:
 * the sign-in page is 27 KB as written and 6 KB in Brotli, a round trip less
 * on a phone's first visit. The global compression does not reach the
 * not-found handler that answers client routes.
 */
function sendPage(request: FastifyRequest, reply: FastifyReply, page: Page, vary: string[]) {
  const accepted = request.headers['accept-encoding']
  const offered = (Object.keys(PRECOMPRESSED) as Encoding[]).filter((e) => page.encoded[e])
  const encoding = accepted && offered.length > 0 ? (negotiate(accepted, offered) as Encoding | undefined) : undefined
  reply.header('Vary', [...vary, 'Accept-Encoding'].join(', '))
  if (!encoding) return reply.send(page.identity)
  return reply.header('Content-Encoding', encoding).send(page.encoded[encoding])
}

/**
 * The language of the browser's Accept-Language that a page exists in, by
 * quality then order; else English, else the first there is.
 */
function pickLanguage(header: string | undefined, available: ReadonlySet<string>): string {
  const wanted = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      return { base: tag.trim().toLowerCase().split('-')[0]!, q: q ? Number(q.slice(2)) : 1, index }
    })
    .filter(({ base, q }) => available.has(base) && q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  return wanted[0]?.base ?? (available.has('en') ? 'en' : [...available][0]!)
}

/**
 * Delivery of everything that is not an API handler: compression of every
 * compressible response, the built client's files with their caching rules,
 * and the fallback that answers client routes with index.html and everything
 * else with the JSON 404. Registered before the API routes, so compression
 * applies to them too.
 */
async function web(app: FastifyInstance, options: WebOptions): Promise<void> {
  // Live responses (the API's JSON, the client page) are compressed on the fly
  // at a moderate Brotli level; the built files were compressed once at build time.
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } },
  })

  const dist = options.webDist && fs.existsSync(path.join(options.webDist, 'index.html')) ? options.webDist : null
  const indexHtml = dist ? readPage(path.join(dist, 'index.html')) : null
  const prerendered = dist ? readPrerendered(dist) : new Map()
  if (dist) {
    await app.register(async (files) => {
      // The client's files are public: signing in happens inside them.
      files.addHook('onRoute', (route) => {
        route.config = { ...route.config, auth: 'public' }
        route.schema = { ...route.schema, hide: true }
      })
      await files.register(fastifyStatic, {
        root: dist,
        prefix: '/',
        wildcard: false,
        index: false,
        // web/scripts/precompress.mjs wrote a .br and .gz beside each compressible file.
        preCompressed: true,
        cacheControl: false,
        setHeaders: (reply, file) => {
          const relative = path.relative(dist, file).split(path.sep).join('/')
          if (relative.startsWith('assets/')) reply.header('Cache-Control', IMMUTABLE)
          else if (/\.html(\.br|\.gz)?$/.test(relative) || REVALIDATED.test(relative)) {
            reply.header('Cache-Control', 'no-cache')
          } else reply.header('Cache-Control', 'public, max-age=86400')
        },
      })
    })
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0]!
    const segment = pathname.split('/')[1] ?? ''
    const page = request.method === 'GET' || request.method === 'HEAD'
    if (indexHtml && page && !options.apiSegments.has(segment) && !FILE_LIKE.test(pathname)) {
      // Client-side routes of the single-page web client; revalidated on every
      // load so a new build's asset names are picked up at once.
      reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache')
      const byLanguage = prerendered.get(pathname)
      if (!byLanguage) return sendPage(request, reply, indexHtml, [])
      // A page painted from its HTML, in the browser's language: caches keep one copy per language.
      const language = pickLanguage(request.headers['accept-language'], new Set(byLanguage.keys()))
      reply.header('Content-Language', language)
      return sendPage(request, reply, byLanguage.get(language)!, ['Accept-Language'])
    }
    return reply.status(404).send({ detail: 'Not found', code: 'not_found' })
  })
}

export default fp(web, { name: 'web' })
