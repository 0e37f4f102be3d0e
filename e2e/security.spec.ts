import { expect, test } from '@playwright/test'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, createUser, createWard, signInPage, unique } from './api'

/**
 * Security rules the browser keeps (docs/SECURITY.md "Web client"): the
 * printable script's blob: address is revoked once shown and its tab closes
 * on sign-out (S15); the profile says whether a calendar feed exists (S13).
 */
test('the printable script: its blob: address is revoked once shown, and its tab closes on sign-out', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const ward = await createWard(admin, unique('Script '))
  const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  await page.goto(`/sustaining?ward=${ward.id}`)

  const [script] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Print' }).click()])
  await script.waitForURL(/^blob:/)
  await expect(script.getByRole('heading', { level: 1 })).toContainText(ward.name)
  const address = script.url()
  // The tab shows (and prints) what it loaded, also once the address is revoked ...
  expect((await script.pdf({ format: 'A4' })).subarray(0, 5).toString()).toBe('%PDF-')
  // ... but opening the address again (history, a copied link) shows nothing.
  await script.close()
  const again = await page.context().newPage()
  await again.goto(address).catch(() => undefined)
  await expect(again.getByText(ward.name)).toHaveCount(0) // Chromium's error page (it has an h1 of its own)
  await again.close()

  const [second] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Print' }).click()])
  await second.waitForURL(/^blob:/)
  await expect(second.getByRole('heading', { level: 1 })).toContainText(ward.name)
  await page.getByRole('button', { name: /Account menu/ }).click()
  await page.getByRole('menuitem', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/signin/)
  await expect.poll(() => second.isClosed()).toBe(true)
  await page.context().close()
})

test('profile → Calendar says whether a feed exists and since when; sign out everywhere ends it', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const user = await createUser(request, admin, 'Feedline', unique('Owner'))
  let page = await signInPage(browser, user)
  await page.goto('/profile')
  const section = page.getByRole('region', { name: 'Calendar' })
  await expect(section.getByTestId('feed-status')).toHaveText('You have no calendar address.')
  await section.getByRole('button', { name: 'Create calendar address' }).click()
  await expect(section.getByTestId('feed-status')).toContainText('A calendar address exists, created')
  const feed = await section.getByLabel('Your calendar address').inputValue()
  expect((await request.get(feed)).status()).toBe(200)

  await page.getByRole('button', { name: 'Sign out everywhere' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Sign out everywhere' }).click()
  await expect(page).toHaveURL(/\/signin/)
  expect((await request.get(feed)).status()).toBe(404)
  await page.context().close()

  page = await signInPage(browser, user)
  await page.goto('/profile')
  await expect(page.getByRole('region', { name: 'Calendar' }).getByTestId('feed-status')).toHaveText(
    'You have no calendar address.',
  )
  await page.context().close()
})
