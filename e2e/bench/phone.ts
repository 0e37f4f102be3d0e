// npm run bench:web: the web client on a slow phone (docs/performance.md). Debian
// Chromium driven by Playwright, throttled through the DevTools protocol to a
// phone profile: 390×844, 4× CPU slowdown, 1.6 Mbps down / 750 kbps up,
// 150 ms round trip. Against the production build served by the real server
// on SQLite, seeded with a realistic stake (server/bench's seeder). Each run
// starts with an empty cache; the figures are the median of RUNS runs.
//
//   BENCH_WEB_RUNS=3     runs (median reported)
//   BENCH_RESEED=1       seed the stake again even when the cached one matches
//   BENCH_LIGHTHOUSE=0   skip Lighthouse on the sign-in page (e2e/bench/lighthouse.ts)
//   BENCH_WEB_TRACE=1    print each request of the board reload: when it was sent and done, from the cache or not
//   BENCH_WEB_PROFILE=f  write a Chrome trace of the board reload to f-<run>.json (open it in DevTools' Performance panel)
//
// Figures: sign-in LCP (cold, then warm cache), from submitting the sign-in
// form to the board's cards on screen, a warm reload of the board (navigation
// start to cards), and the bytes (transferred, as compressed on the wire) and
// requests of each, by type.
import { spawnSync } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { chromium, type CDPSession, type Page } from 'playwright'
import { LIGHTHOUSE_TARGETS, lighthouseSignIn } from './lighthouse'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3)
/** A stake of realistic size: 30 wards, 600 users, a few dozen open proposals. */
const SIZE = { open: 60, closed: 600 }
const PHONE = { width: 390, height: 844 }
const NETWORK = { latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (750e3 / 8) | 0 }
const CPU_SLOWDOWN = 4
const CARDS = '.pcard, [data-testid^="card-"]'
const TARGETS = { signInLcp: 1000, cards: 800, warmReload: 1000, signInJsKb: 100 }
const log = (line: string) => process.stderr.write(`${line}\n`)

// server/bench is loaded at run time (its sources are the server's, type-checked there).
interface StakeStore {
  ensureStake(stake: object, argon2: object): Promise<string>
  clearSessions(url: string): Promise<void>
  stakeUrl(dialect: 'sqlite', name: string): string
}
interface ServerProcess {
  startServer(url: string): Promise<{ baseUrl: string; stop(): Promise<void> }>
}
const load = async <T>(file: string) => (await import(pathToFileURL(path.join(root, file)).href)) as T

type Kind = 'js' | 'css' | 'document' | 'api' | 'other'
interface Traffic {
  /** On the wire: headers and compressed bodies. */
  bytes: Record<Kind, number>
  /** The compressed bodies alone (what the server's .br files weigh). */
  body: Record<Kind, number>
  requests: Record<Kind, number>
  cached: number
  /** Each request: its path, sent and done in ms from the phase's first request, from the cache or not. */
  trace: { path: string; sent: number; done: number; cached: boolean }[]
}
const emptyTraffic = (): Traffic => ({
  trace: [],
  bytes: { js: 0, css: 0, document: 0, api: 0, other: 0 },
  body: { js: 0, css: 0, document: 0, api: 0, other: 0 },
  requests: { js: 0, css: 0, document: 0, api: 0, other: 0 },
  cached: 0,
})

/** Counts every response's bytes on the wire (headers and compressed body) while `phase` is set. */
function recordTraffic(cdp: CDPSession) {
  const kinds = new Map<string, Kind>()
  const headerBytes = new Map<string, number>()
  const fromCache = new Set<string>()
  const sent = new Map<string, { path: string; at: number }>()
  let firstSent: number | null = null
  let current: Traffic | null = null
  cdp.on('Network.requestWillBeSent', (e) => {
    const url = new URL(e.request.url)
    firstSent ??= e.timestamp
    sent.set(e.requestId, { path: url.pathname + url.search, at: e.timestamp })
  })
  cdp.on('Network.responseReceived', (e) => {
    const url = new URL(e.response.url)
    const kind: Kind =
      e.type === 'Script'
        ? 'js'
        : e.type === 'Stylesheet'
          ? 'css'
          : e.type === 'Document'
            ? 'document'
            : url.pathname.startsWith('/api/')
              ? 'api'
              : 'other'
    kinds.set(e.requestId, kind)
    headerBytes.set(e.requestId, e.response.encodedDataLength)
    if (e.response.fromDiskCache || e.response.fromPrefetchCache || e.response.fromServiceWorker)
      fromCache.add(e.requestId)
  })
  cdp.on('Network.requestServedFromCache', (e) => fromCache.add(e.requestId))
  cdp.on('Network.loadingFinished', (e) => {
    const kind = kinds.get(e.requestId)
    if (!current || !kind) return
    current.requests[kind] += 1
    const request = sent.get(e.requestId)
    if (request && firstSent !== null) {
      const ms = (t: number) => Math.round((t - firstSent!) * 1000)
      current.trace.push({
        path: request.path,
        sent: ms(request.at),
        done: ms(e.timestamp),
        cached: fromCache.has(e.requestId),
      })
    }
    if (fromCache.has(e.requestId)) current.cached += 1
    else {
      current.bytes[kind] += e.encodedDataLength
      current.body[kind] += e.encodedDataLength - (headerBytes.get(e.requestId) ?? 0)
    }
  })
  return {
    start() {
      firstSent = null
      current = emptyTraffic()
      return current
    },
  }
}

/**
 * Installed before every document: the LCP, the sign-in form's submit time,
 * the time the cards were shown for good. Cards that are shown and then
 * hidden again (a Suspense fallback taking the page back) do not count: the
 * time is taken again when they come back, and `hidden` counts it.
 */
const PROBE = `(() => {
  window.__bench = { lcp: 0, submitAt: null, cardsAt: null, hidden: 0 }
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.lcp = e.startTime
  }).observe({ type: 'largest-contentful-paint', buffered: true })
  document.addEventListener('submit', () => { window.__bench.submitAt = performance.now() }, true)
  const shown = () => [...document.querySelectorAll(${JSON.stringify(CARDS)})].some((card) => card.checkVisibility())
  const seen = () => {
    if (window.__bench.cardsAt === null && shown()) {
      // The frame that shows them: the next animation frame after they are in the document.
      requestAnimationFrame(() => { if (window.__bench.cardsAt === null && shown()) window.__bench.cardsAt = performance.now() })
    } else if (window.__bench.cardsAt !== null && !shown()) {
      window.__bench.cardsAt = null
      window.__bench.hidden += 1
    }
  }
  new MutationObserver(seen).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['style', 'hidden', 'class'] })
})()`

interface Probe {
  lcp: number
  submitAt: number | null
  cardsAt: number | null
  /** How many times the cards were shown and then hidden again. */
  hidden: number
}
const probe = (page: Page) => page.evaluate(() => (window as unknown as { __bench: Probe }).__bench)

/** Waits until the cards are on screen again, should something have hidden them after they first showed. */
const shownForGood = (page: Page) =>
  page.waitForFunction(() => (window as unknown as { __bench: Probe }).__bench.cardsAt !== null, null, {
    timeout: 60_000,
  })

async function settle(page: Page) {
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(300) // LCP entries are reported after the frame that painted them
}

interface Run {
  signInLcpCold: number
  signInLcpWarm: number
  cards: number
  warmReload: number
  /** Times the cards were shown and hidden again, after the sign-in and the reload. */
  hidden: number
  signIn: Traffic
  toBoard: Traffic
  reload: Traffic
}

async function oneRun(baseUrl: string, email: string, password: string, run: number): Promise<Run> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  try {
    // A new context: an empty cache and no cookies.
    const context = await browser.newContext({
      viewport: PHONE,
      deviceScaleFactor: 3,
      isMobile: true,
      hasTouch: true,
      baseURL: baseUrl,
    })
    await context.addInitScript(PROBE)
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...NETWORK })
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
    const traffic = recordTraffic(cdp)

    // Sign-in, cold cache.
    const signIn = traffic.start()
    await page.goto('/signin')
    await page.getByRole('button', { name: /sign in|iniciar/i }).waitFor()
    await settle(page)
    const signInLcpCold = (await probe(page)).lcp

    // Sign-in again, warm cache.
    traffic.start()
    await page.reload()
    await settle(page)
    const signInLcpWarm = (await probe(page)).lcp

    // Submit → the board's cards.
    const toBoard = traffic.start()
    await page.locator('input[type="email"], input[name="email"], #email').first().fill(email)
    await page.locator('input[type="password"]').first().fill(password)
    await page.locator('form button[type="submit"]').first().click()
    await page.locator(CARDS).first().waitFor({ timeout: 60_000 })
    await shownForGood(page)
    await settle(page)
    await shownForGood(page)
    const afterSubmit = await probe(page)
    const cards = afterSubmit.cardsAt! - afterSubmit.submitAt!

    // Reload of the board, warm cache: navigation start to cards on screen.
    const reload = traffic.start()
    const profile = process.env.BENCH_WEB_PROFILE
    if (profile) await browser.startTracing(page, { path: `${profile}-${run}.json`, screenshots: false })
    await page.reload()
    await page.locator(CARDS).first().waitFor({ timeout: 60_000 })
    await shownForGood(page)
    if (profile) await browser.stopTracing()
    await settle(page)
    await shownForGood(page)
    const afterReload = await probe(page)
    const warmReload = afterReload.cardsAt!
    const hidden = afterSubmit.hidden + afterReload.hidden

    return { signInLcpCold, signInLcpWarm, cards, warmReload, hidden, signIn, toBoard, reload }
  } finally {
    await browser.close()
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const ms = (v: number) => `${Math.round(v)} ms`

function trafficRow(name: string, runs: Traffic[]) {
  const m = (pick: (t: Traffic) => number) => median(runs.map(pick))
  const kinds: Kind[] = ['js', 'css', 'document', 'api', 'other']
  const bytes = kinds.map((k) => `${k} ${kb(m((t) => t.bytes[k]))}`).join(', ')
  const requests = kinds.map((k) => `${k} ${m((t) => t.requests[k])}`).join(', ')
  return `  ${name}\n    transferred: ${bytes}\n    requests:    ${requests}; from cache ${m((t) => t.cached)}`
}

async function main() {
  log('Building the web client if its sources changed…')
  const built = spawnSync(process.execPath, ['scripts/build-if-changed.mjs'], { cwd: root, stdio: 'inherit' })
  if (built.status !== 0) process.exit(built.status ?? 1)

  const store = await load<StakeStore>('server/bench/stake-store.ts')
  const { startServer } = await load<ServerProcess>('server/bench/server-process.ts')
  const { parseConfig } = await load<{ parseConfig(env: object): { argon2: object } }>('server/src/config.ts')
  const { ADMIN_EMAIL, PASSWORD } = await load<{ ADMIN_EMAIL: string; PASSWORD: string }>('server/bench/stake-data.ts')
  const url = store.stakeUrl('sqlite', 'web')
  log(
    `stake (${SIZE.open} open, ${SIZE.closed} closed proposals): ${await store.ensureStake({ dialect: 'sqlite', name: 'web', size: SIZE, url }, parseConfig({}).argon2)}`,
  )
  await store.clearSessions(url)
  const server = await startServer(url)
  const runs: Run[] = []
  let lighthouse: Awaited<ReturnType<typeof lighthouseSignIn>> | null = null
  try {
    for (let i = 0; i < RUNS; i++) {
      const run = await oneRun(server.baseUrl, ADMIN_EMAIL, PASSWORD, i + 1)
      log(
        `run ${i + 1}: sign-in LCP ${ms(run.signInLcpCold)} (warm ${ms(run.signInLcpWarm)}), cards ${ms(run.cards)} after submit, warm reload ${ms(run.warmReload)}, sign-in JS ${kb(run.signIn.body.js)}${run.hidden ? `, cards hidden again ${run.hidden}×` : ''}`,
      )
      runs.push(run)
      if (process.env.BENCH_WEB_TRACE === '1') {
        for (const r of [...run.reload.trace].sort((a, b) => a.sent - b.sent)) {
          log(`  reload: ${r.sent} → ${r.done} ms ${r.cached ? '(cache) ' : ''}${r.path}`)
        }
      }
    }
    if (process.env.BENCH_LIGHTHOUSE !== '0') lighthouse = await lighthouseSignIn(server.baseUrl, RUNS, log)
  } finally {
    await server.stop()
  }

  const m = (pick: (r: Run) => number) => median(runs.map(pick))
  const figures = {
    signInLcp: m((r) => r.signInLcpCold),
    signInLcpWarm: m((r) => r.signInLcpWarm),
    cards: m((r) => r.cards),
    warmReload: m((r) => r.warmReload),
    signInJs: m((r) => r.signIn.body.js),
    signInJsWire: m((r) => r.signIn.bytes.js),
  }
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met')
  console.log(
    [
      '',
      `${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((v) => v.toFixed(1))
        .join(' ')} (a busy machine stretches every CPU-bound figure)`,
      `Web on a phone: ${PHONE.width}×${PHONE.height}, ${CPU_SLOWDOWN}× CPU slowdown, 1.6 Mbps down / 750 kbps up, ${NETWORK.latency} ms RTT; median of ${RUNS} runs`,
      `  sign-in LCP, cold cache        ${ms(figures.signInLcp).padStart(8)}   target ≤ ${TARGETS.signInLcp} ms: ${verdict(figures.signInLcp <= TARGETS.signInLcp)}`,
      `  sign-in LCP, warm cache        ${ms(figures.signInLcpWarm).padStart(8)}`,
      `  submit → board cards visible   ${ms(figures.cards).padStart(8)}   target ≤ ${TARGETS.cards} ms: ${verdict(figures.cards <= TARGETS.cards)}`,
      `  board reload, warm cache       ${ms(figures.warmReload).padStart(8)}   target ≤ ${TARGETS.warmReload} ms: ${verdict(figures.warmReload <= TARGETS.warmReload)}`,
      `  sign-in JavaScript, compressed ${kb(figures.signInJs).padStart(8)}   target ≤ ${TARGETS.signInJsKb} KB: ${verdict(figures.signInJs <= TARGETS.signInJsKb * 1024)} (${kb(figures.signInJsWire)} on the wire with headers)`,
      ...(lighthouse
        ? [
            `Lighthouse 12.2.3, sign-in page, mobile (median of ${RUNS}): ` +
              (['performance', 'accessibility', 'bestPractices', 'seo'] as const)
                .map(
                  (k) =>
                    `${k} ${lighthouse![k]} (≥ ${LIGHTHOUSE_TARGETS[k]}: ${verdict(lighthouse![k] >= LIGHTHOUSE_TARGETS[k])})`,
                )
                .join(', '),
            ...lighthouse.notes.map((n) => `  failed: ${n}`),
          ]
        : []),
      '',
      'Bytes on the wire (headers + compressed bodies) and requests, by type (median):',
      trafficRow(
        'sign-in page, cold cache',
        runs.map((r) => r.signIn),
      ),
      trafficRow(
        'submit → board (cold cache for the board)',
        runs.map((r) => r.toBoard),
      ),
      trafficRow(
        'board reload, warm cache',
        runs.map((r) => r.reload),
      ),
      '',
    ].join('\n'),
  )
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
