import { expect, test, type Page, type Route } from '@playwright/test'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, navigateTo, unique } from './api'

/**
 * The client never goes blank: a page's code that fails to download is
 * retried, then explained with "Try again" and "Reload"; a deploy that
 * removed the old chunks makes the client reload itself once onto the new
 * version; a lost connection is shown and recovered from.
 */

const BOARD = 'Calling proposals'
const FAILED = 'This page could not be loaded'

async function signIn(page: Page) {
  await page.goto('/signin')
  await page.getByLabel('Email').fill(ADMIN_EMAIL)
  await page.getByLabel('Password').fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

/** Records, inside the page, whether an error panel was ever shown. */
async function watchForErrorPanel(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __sawErrorPanel?: boolean }
    w.__sawErrorPanel = false
    new MutationObserver(() => {
      if (document.querySelector('.error-panel')) w.__sawErrorPanel = true
    }).observe(document, { childList: true, subtree: true })
  })
}
const sawErrorPanel = (page: Page) =>
  page.evaluate(() => (window as unknown as { __sawErrorPanel?: boolean }).__sawErrorPanel)

test.beforeAll(async ({ request }) => {
  await adminApi(request) // the administrator's first password change
})

test('a page whose code fails to download once still appears, after the retry', async ({ page }) => {
  await watchForErrorPanel(page)
  let requests = 0
  await page.route('**/assets/BoardPage-*.js', (route) => {
    requests += 1
    return requests === 1 ? route.abort('connectionreset') : route.fallback()
  })
  await signIn(page)
  await expect(page.getByRole('heading', { name: BOARD })).toBeVisible()
  expect(requests).toBeGreaterThanOrEqual(2)
  expect(await sawErrorPanel(page)).toBe(false)
})

test('a page whose code never arrives is explained; the navigation still works; Reload and Try again recover', async ({
  page,
}) => {
  let serve = false
  const block = (route: Route) => (serve ? route.fallback() : route.abort('connectionreset'))
  await page.route('**/assets/BoardPage-*.js', block)
  await page.route('**/assets/SpeakingPage-*.js', block)
  // (The access token lives 5 seconds here: a report may need a refresh first.)
  const report = page.waitForResponse((r) => r.url().endsWith('/api/client-errors') && r.status() === 204)

  await signIn(page)
  const panel = page.getByRole('alert').filter({ hasText: FAILED })
  await expect(panel.getByRole('heading', { name: FAILED })).toBeVisible({ timeout: 20_000 })
  await expect(panel.getByRole('button', { name: 'Try again' })).toBeVisible()
  await expect(panel.getByRole('button', { name: 'Reload' })).toBeVisible()

  // The failure was reported to the server's log, with the route and no query string.
  const sent = (await report).request()
  expect(sent.postDataJSON()).toMatchObject({ route: '/board', message: expect.stringContaining('ChunkLoadError') })
  expect(sent.headers().authorization, 'reported as the signed-in user').toMatch(/^Bearer /)

  // The navigation around the failed page is usable.
  await navigateTo(page, 'Wards')
  await expect(page.getByRole('heading', { name: 'Wards', exact: true })).toBeVisible()
  await expect(page.getByRole('heading', { name: FAILED })).toHaveCount(0)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Board' }).click()
  await expect(page.getByRole('heading', { name: FAILED })).toBeVisible({ timeout: 20_000 })

  // Once the code is served again, Reload shows the board.
  serve = true
  await page.getByRole('button', { name: 'Reload' }).click()
  await expect(page.getByRole('heading', { name: BOARD })).toBeVisible()

  // Try again, without a reload: the same page object survives.
  serve = false
  await page.evaluate(() => ((window as unknown as { __same?: number }).__same = 1))
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Speaking' }).click()
  await expect(page.getByRole('heading', { name: FAILED })).toBeVisible({ timeout: 20_000 })
  serve = true
  await page.getByRole('button', { name: 'Try again' }).click()
  await expect(page.getByRole('heading', { name: FAILED })).toHaveCount(0)
  await expect(page.locator('main h1').first()).not.toHaveText(FAILED)
  await expect(page).toHaveURL(/\/schedule$/)
  expect(await page.evaluate(() => (window as unknown as { __same?: number }).__same)).toBe(1)
})

/** A new build's file name for an old one: `X.js` becomes `X.v2.js`. */
const renameChunks = (text: string, version: string) => text.replace(/([\w-]+)\.js(?=["'`])/g, `$1.${version}.js`)

test('after a deploy removed the old chunks, the client reloads itself once onto the new version, never in a loop', async ({
  page,
  request,
}) => {
  // Before the deploy: the wards page's code has not been downloaded (the
  // background prefetch misses it), so it must come from the server later.
  await page.route('**/assets/WardsPage-*.js', (route) => route.abort('connectionreset'))
  await signIn(page)
  await expect(page.getByRole('heading', { name: BOARD })).toBeVisible()

  // The deploy: index.html names new files; the old ones are gone (404).
  const oldIndex = await (await request.get('/index.html')).text()
  const v2Index = renameChunks(oldIndex, 'v2')
  expect(v2Index).not.toBe(oldIndex)
  let missingInV2 = ''
  let indexForFetch = v2Index
  let documentLoads = 0
  await page.unroute('**/assets/WardsPage-*.js')
  await page.route('**/assets/*.js', async (route) => {
    const url = new URL(route.request().url())
    const m = /^(.*)\.v2\.js$/.exec(url.pathname)
    if (!m || (missingInV2 && url.pathname.includes(missingInV2)))
      return route.fulfill({ status: 404, body: 'Not found' })
    const original = await route.fetch({ url: new URL(`${m[1]}.js`, url).toString() })
    return route.fulfill({
      status: 200,
      contentType: 'text/javascript',
      body: renameChunks(await original.text(), 'v2'),
    })
  })
  await page.route(
    (url) => url.pathname === '/index.html' || !url.pathname.startsWith('/api/'),
    (route) => {
      const req = route.request()
      if (req.resourceType() === 'document') {
        documentLoads += 1
        return route.fulfill({ status: 200, contentType: 'text/html', body: v2Index })
      }
      if (new URL(req.url()).pathname === '/index.html')
        return route.fulfill({ status: 200, contentType: 'text/html', body: indexForFetch })
      return route.fallback()
    },
  )

  await navigateTo(page, 'Wards')
  await expect(page.getByRole('heading', { name: 'Wards', exact: true })).toBeVisible({ timeout: 20_000 })
  expect(documentLoads).toBe(1)
  const entry = await page.evaluate(() => document.querySelector('script[type="module"][src]')?.getAttribute('src'))
  expect(entry).toMatch(/\.v2\.js$/)

  // A broken deploy (the server names yet another build, whose code the
  // reload would not get either) is explained instead of reloading again.
  missingInV2 = 'SpeakingPage-'
  indexForFetch = renameChunks(oldIndex, 'v3')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Speaking' }).click()
  await expect(page.getByRole('heading', { name: 'A new version of the app is available' })).toBeVisible({
    timeout: 20_000,
  })
  await page.waitForTimeout(1000)
  expect(documentLoads).toBe(1)
})

test('a lost connection is shown, changes wait for it, and everything recovers', async ({ page, context, request }) => {
  const admin = await adminApi(request)
  await signIn(page)
  await expect(page.getByRole('heading', { name: BOARD })).toBeVisible()
  await navigateTo(page, 'Wards')
  await expect(page.getByRole('heading', { name: 'Wards', exact: true })).toBeVisible()
  const banner = page.getByText("You're offline.")

  // The browser goes offline: the banner, and a change made meanwhile waits.
  await context.setOffline(true)
  await expect(banner).toBeVisible()
  const name = unique('Offline Ward ')
  await page.getByRole('button', { name: 'New ward' }).click()
  await page.getByRole('dialog').getByLabel('Name').fill(name)
  await page.getByRole('dialog').getByRole('button', { name: 'Create ward' }).click()
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Saving…' })).toBeVisible()
  await context.setOffline(false)
  await expect(banner).toBeHidden()
  await expect(page.getByRole('cell', { name, exact: true })).toBeVisible()
  expect((await admin.req('GET', '/api/wards/')).filter((w: { name: string }) => w.name === name)).toHaveLength(1)

  // The server stops answering while the browser thinks it is online: the
  // failed requests show the banner, and a probe notices the recovery.
  await page.route('**/api/**', (route) => route.abort('internetdisconnected'))
  const calling = await admin.req('POST', '/api/callings/', { name: unique('Outage Calling ') })
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Callings' }).click()
  await expect(banner).toBeVisible()
  await expect(page.getByText('Waiting for the connection…')).toBeVisible()
  await page.unroute('**/api/**')
  await expect(banner).toBeHidden({ timeout: 20_000 })
  await page.getByLabel('Search').fill(calling.name)
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page.getByRole('link', { name: calling.name })).toBeVisible()
})

test('a page opened while the server cannot be reached explains it, then signs the user in by itself', async ({
  page,
}) => {
  await signIn(page)
  await expect(page.getByRole('heading', { name: BOARD })).toBeVisible()
  await page.route('**/api/**', (route) => route.abort('internetdisconnected'))
  await page.reload()
  await expect(page.getByText("You're offline.")).toBeVisible()
  await expect(page.getByRole('alert')).toContainText('could not be reached')
  await page.unroute('**/api/**')
  await expect(page.getByRole('heading', { name: BOARD })).toBeVisible({ timeout: 20_000 })
  await expect(page.getByText("You're offline.")).toBeHidden()
})
