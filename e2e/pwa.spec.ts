import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { adminApi, createUser, type Account } from './api'

/**
 * The installable client (docs/api-reference.md §13) against the built client served by
 * the real server, as in production: the manifest and the service worker,
 * the app shell offline, the shared-computer sign-out and the calendar QR
 * code, at phone and desktop sizes. The other specs block service workers
 * (web/playwright.config.ts) because request interception does not see what
 * a worker answers; these contexts allow them.
 */

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
] as const
type Size = (typeof SIZES)[number]

/** `vite preview` serves the same build with its own headers: the header checks are the server's. */
const viaServer = process.env.E2E_CLIENT !== 'preview'

function newContext(browser: Browser, size: Size): Promise<BrowserContext> {
  return browser.newContext({
    viewport: size.viewport,
    isMobile: size.isMobile,
    hasTouch: size.hasTouch,
    serviceWorkers: 'allow',
  })
}

async function signIn(page: Page, account: Account, options: { shared?: boolean } = {}) {
  await page.goto('/signin')
  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Password').fill(account.password)
  if (options.shared) await page.getByLabel('This is a shared computer').check()
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
}

/** Every URL held in any of the page's caches (Cache Storage). */
function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = []
    for (const name of await caches.keys()) {
      for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname)
    }
    return urls
  })
}

for (const size of SIZES) {
  test.describe(`installable app (${size.name})`, () => {
    test('serves the manifest and the service worker, registers it, and opens the app shell offline while API calls are never cached', async ({
      browser,
      request,
    }) => {
      const admin = await adminApi(request)
      const user = await createUser(request, admin, 'Offline')
      const context = await newContext(browser, size)
      const page = await context.newPage()

      const manifest = await page.request.get('/manifest.webmanifest')
      expect(manifest.status()).toBe(200)
      expect((await manifest.json()).icons.length).toBeGreaterThan(0)
      const worker = await page.request.get('/sw.js')
      expect(worker.status()).toBe(200)
      expect(worker.headers()['content-type']).toMatch(/javascript/)
      if (viaServer) {
        expect(manifest.headers()['content-type']).toMatch(/^application\/manifest\+json/)
        expect(manifest.headers()['cache-control']).toBe('no-cache')
        expect(worker.headers()['cache-control']).toBe('no-cache')
      }

      // The page links the one manifest, and the worker registers after load and becomes active.
      await page.goto('/signin')
      await expect(page.locator('link[rel="manifest"]')).toHaveCount(1)
      await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest')
      const scriptURL = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)
      expect(scriptURL).toMatch(/\/sw\.js$/)

      // A first visit signed in: the API answers pass through, none is kept.
      const apiGets: string[] = []
      page.on('request', (req) => {
        const path = new URL(req.url()).pathname
        if (req.method() === 'GET' && path.startsWith('/api/')) apiGets.push(path)
      })
      await signIn(page, user)
      await page.goto('/profile')
      await expect(page.getByRole('heading', { name: 'Calendar' })).toBeVisible()
      expect(apiGets.length).toBeGreaterThan(0)
      const cached = await cachedUrls(page)
      expect(cached).toContain('/index.html')
      expect(cached.some((p) => /^\/assets\/index-.*\.js$/.test(p))).toBe(true)
      expect(cached.filter((p) => /^\/(api|auth)\/|\.ics$/.test(p))).toEqual([])

      // Offline: the shell still opens (sign-in, saying the server cannot be reached); the API does not answer from any cache.
      await context.setOffline(true)
      const offlinePage = await page.goto('/board')
      expect(offlinePage?.fromServiceWorker()).toBe(true)
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
      await expect(page.getByText('The server could not be reached', { exact: false }).first()).toBeVisible()
      const offlineApi = await page.evaluate(async (path) => {
        try {
          const res = await fetch(path, { credentials: 'same-origin' })
          return `answered ${res.status}`
        } catch {
          return 'failed'
        }
      }, apiGets[0]!)
      expect(offlineApi).toBe('failed')

      // Back online, the app signs in again by itself (the refresh cookie was kept; nothing was cached).
      await context.setOffline(false)
      await page.goto('/board')
      await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
      await context.close()
    })

    test('a shared-computer sign-in ends after 30 minutes without input and says why; input keeps it alive', async ({
      browser,
      request,
    }) => {
      const admin = await adminApi(request)
      const user = await createUser(request, admin, 'Shared')
      const context = await newContext(browser, size)
      const page = await context.newPage()
      await page.clock.install()
      await signIn(page, user, { shared: true })

      // The refresh cookie lives only as long as the browser (no Max-Age).
      const cookie = (await context.cookies()).find((c) => c.name === 'refresh_token')
      expect(cookie?.expires).toBe(-1)

      // 20 minutes, some input, 20 more minutes: still signed in.
      await page.clock.runFor('20:00')
      await page.mouse.move(10, 10)
      await page.mouse.move(40, 60)
      await page.keyboard.press('Shift')
      await page.clock.runFor('20:00')
      await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()

      // 30 minutes without input: signed out, told why.
      await page.clock.runFor('30:30')
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
      await expect(
        page.getByText('You were signed out after 30 minutes without activity', { exact: false }),
      ).toBeVisible()
      // The session is over on the server too: a reload does not sign in again.
      await page.reload()
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
      await context.close()
    })

    test('the profile shows the calendar subscription as a QR code, with the webcal link, Subscribe and Copy link', async ({
      browser,
      request,
    }) => {
      const admin = await adminApi(request)
      const user = await createUser(request, admin, 'Qr')
      const context = await newContext(browser, size)
      await context.grantPermissions(['clipboard-read', 'clipboard-write'])
      const page = await context.newPage()
      const hosts = new Set<string>()
      page.on('request', (req) => hosts.add(new URL(req.url()).host))
      await signIn(page, user)
      await page.goto('/profile')
      const section = page.getByRole('region', { name: 'Calendar' })
      await section.getByRole('button', { name: 'Create calendar address' }).click()
      const address = await section.getByLabel('Your calendar address').inputValue()
      const webcal = address.replace(/^https?:\/\//, 'webcal://')

      const qr = section.getByRole('img', { name: 'QR code of the calendar subscription' })
      await expect(qr).toBeVisible()
      await expect(qr).toHaveAttribute('data-qr-text', webcal)
      const box = (await qr.boundingBox())!
      expect(box.width).toBeGreaterThan(150)
      expect(box.x + box.width).toBeLessThanOrEqual(size.viewport.width)
      await expect(section.getByRole('link', { name: 'Subscribe' })).toHaveAttribute('href', webcal)
      await expect(section.getByRole('link', { name: webcal })).toBeVisible()

      await section.getByRole('button', { name: 'Copy link' }).click()
      await expect(page.getByText('Link copied.')).toBeVisible()
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address)

      // Drawn here: no request left this server for the code.
      expect([...hosts]).toEqual([new URL(page.url()).host])

      await section.getByRole('button', { name: 'Revoke address' }).click()
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke address' }).click()
      await expect(qr).toBeHidden()
      await context.close()
    })
  })
}

test('a normal sign-in is not ended by 45 minutes without input', async ({ browser, request }) => {
  const admin = await adminApi(request)
  const user = await createUser(request, admin, 'Normal')
  const context = await newContext(browser, SIZES[1])
  const page = await context.newPage()
  await page.clock.install()
  await signIn(page, user)
  expect((await context.cookies()).find((c) => c.name === 'refresh_token')?.expires).toBeGreaterThan(0)
  await page.clock.runFor('45:00')
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
  // and the next page still loads its data (a refresh with the kept cookie)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Speaking' }).click()
  await expect(page).toHaveURL(/\/schedule$/)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeHidden()
  await context.close()
})

test('a deploy while the app is open shows "A new version is available" and Reload switches to it', async ({
  browser,
}) => {
  // The deploy is simulated by changing the served sw.js on disk (and its precompressed copies).
  test.skip(!viaServer || !!process.env.E2E_BASE_URL, 'needs the server started by this run, serving web/dist')
  const context = await newContext(browser, SIZES[1])
  const page = await context.newPage()
  await page.goto('/signin')
  await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)
  // A second visit: now the worker controls the page (a new one must wait for the user).
  await page.reload()
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)

  const restore = deployNewWorker()
  try {
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update())
    const prompt = page.getByRole('status').filter({ hasText: 'A new version is available.' })
    await expect(prompt).toBeVisible()
    await expect(prompt.getByRole('button', { name: 'Later' })).toBeVisible()

    const reloaded = page.waitForEvent('load')
    await prompt.getByRole('button', { name: 'Reload' }).click()
    await reloaded
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
    await expect(page.getByText('A new version is available.')).toBeHidden()
    const state = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration()
      return { waiting: registration?.waiting ?? null, controlled: navigator.serviceWorker.controller !== null }
    })
    expect(state).toEqual({ waiting: null, controlled: true })
  } finally {
    restore()
  }
  await context.close()
})

/** Rewrites web/dist/sw.js (and .br, .gz) as a new build would; returns the function that puts the old ones back. */
function deployNewWorker(): () => void {
  const dist = join(dirname(test.info().config.configFile!), 'dist')
  const file = join(dist, 'sw.js')
  const saved = new Map<string, Buffer>()
  for (const f of [file, `${file}.br`, `${file}.gz`]) if (existsSync(f)) saved.set(f, readFileSync(f))
  const next = Buffer.concat([saved.get(file)!, Buffer.from(`\n// next build ${Date.now()}\n`)])
  writeFileSync(file, next)
  if (saved.has(`${file}.br`)) writeFileSync(`${file}.br`, brotliCompressSync(next))
  if (saved.has(`${file}.gz`)) writeFileSync(`${file}.gz`, gzipSync(next))
  return () => {
    for (const [f, body] of saved) writeFileSync(f, body)
  }
}
