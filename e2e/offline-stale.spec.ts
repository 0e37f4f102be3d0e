import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { expectAccessible } from './axe'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, navigateTo, signInPage, unique } from './api'

/**
 * With the server unreachable, pages keep the data they showed, marked as
 * not up to date, instead of going blank; a page never loaded says it waits;
 * a change made meanwhile is counted as waiting, and is sent on recovery.
 * One message, in the banner, for the whole app.
 */
const STALE = /Not up to date: shown as of \d{1,2}:\d{2}/

test('the server stops: the board and the speaking page keep their data with the stale mark; a change waits', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  const nav = page.getByRole('navigation', { name: 'Main' })
  const year = new Date().getFullYear()
  await nav.getByRole('link', { name: 'Speaking' }).click()
  await expect(page.getByRole('heading', { name: `Speaking schedule ${year}` })).toBeVisible()
  await expect(page.getByRole('table')).toBeVisible()
  await navigateTo(page, 'Wards')
  await expect(page.getByRole('heading', { name: 'Wards', exact: true })).toBeVisible()
  await nav.getByRole('link', { name: 'Board' }).click()
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
  // The picture is of the board: a first-run list still showing is put away (this browser only).
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined)
  const hide = page.getByRole('button', { name: 'Hide this list' })
  if (await hide.isVisible()) await hide.click()
  await expect(hide).toHaveCount(0)
  const boardText = await page.locator('main').innerText()

  // The server stops answering (the way e2e/resilience.spec.ts stops it).
  await page.route('**/api/**', (route) => route.abort('connectionrefused'))
  const banner = page.locator('.offline-banner')
  await nav.getByRole('link', { name: 'Callings' }).click()
  await expect(banner).toContainText("You're offline.")
  await expect(banner).toContainText('This page will load when the connection is back.')

  await nav.getByRole('link', { name: 'Board' }).click()
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
  await expect(banner).toContainText(STALE)
  expect(await page.locator('main').innerText()).toBe(boardText)
  const shots =
    process.env.UPDATE_SCREENSHOTS === '1' ? ['..', 'docs', 'screenshots'] : ['..', 'test-results', 'screenshots']
  await page.screenshot({ path: join(test.info().config.rootDir, ...shots, 'offline-desktop.png') })
  await expectAccessible(page, 'the board offline')

  await nav.getByRole('link', { name: 'Speaking' }).click()
  await expect(page.getByRole('heading', { name: `Speaking schedule ${year}` })).toBeVisible()
  await expect(page.getByRole('table')).toBeVisible()
  await expect(banner).toContainText(STALE)

  // A change made meanwhile: the banner says it waits (and nothing says it failed).
  await navigateTo(page, 'Wards')
  const name = unique('Waiting Ward ')
  await page.getByRole('button', { name: 'New ward' }).click()
  await page.getByRole('dialog').getByLabel('Name').fill(name)
  await page.getByRole('dialog').getByRole('button', { name: 'Create ward' }).click()
  await expect(banner).toContainText('1 change is waiting and will be sent when the connection is back.')
  await expect(page.getByText(/not recorded|could not be reached/)).toHaveCount(0)

  // The server is back: the banner goes, the change is made once.
  await page.unroute('**/api/**')
  await expect(banner).toBeHidden({ timeout: 20_000 })
  await expect(page.getByRole('cell', { name, exact: true })).toBeVisible()
  expect((await admin.req('GET', '/api/wards/')).filter((w: { name: string }) => w.name === name)).toHaveLength(1)
  await page.context().close()
})
