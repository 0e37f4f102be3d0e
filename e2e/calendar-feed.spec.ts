import { expect, test } from '@playwright/test'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, createUser, createWard, seat, signInPage, unique } from './api'

test('profile → Calendar: create, subscribe link, replace and revoke the private feed address', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const ward = unique('Feed ')
  await createWard(admin, ward)
  const hc = await createUser(request, admin, 'Feed', 'Councilor')
  await seat(admin, 'high_councilor', hc.id)

  const page = await signInPage(browser, hc)
  await page.goto('/profile')
  const section = page.getByRole('region', { name: 'Calendar' })
  // No address yet: nothing to revoke, so no red button.
  await expect(section.getByRole('button', { name: 'Create calendar address' })).toBeVisible()
  await expect(section.getByRole('button', { name: 'Revoke address' })).toHaveCount(0)
  await section.getByRole('button', { name: 'Create calendar address' }).click()
  const address = section.getByLabel('Your calendar address')
  await expect(address).toHaveValue(/\/api\/speaking\/feed\/[A-Za-z0-9_-]{43}\.ics$/)
  const first = await address.inputValue()
  await expect(section.getByRole('link', { name: 'Subscribe' })).toHaveAttribute(
    'href',
    first.replace(/^https?:\/\//, 'webcal://'),
  )

  // A calendar app fetches it without signing in: his own speaking assignments.
  const feed = await request.get(first)
  expect(feed.status()).toBe(200)
  expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8')
  const text = await feed.text()
  expect(text).toContain('BEGIN:VEVENT')
  // Which wards fall to him depends on the wards other specs made before; the rotation itself is tested on the server.
  expect(text).toMatch(/SUMMARY:Speaking: \S/)

  await section.getByRole('button', { name: 'Replace address' }).click()
  await expect(address).not.toHaveValue(first)
  const second = await address.inputValue()
  expect((await request.get(first)).status()).toBe(404)
  expect((await request.get(second)).status()).toBe(200)

  await section.getByRole('button', { name: 'Revoke address' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke address' }).click()
  await expect(section.getByText('Your calendar address no longer works.')).toBeVisible()
  await expect(address).toBeHidden()
  await expect(section.getByRole('button', { name: 'Revoke address' })).toHaveCount(0)
  expect((await request.get(second)).status()).toBe(404)
  await page.context().close()
})

test('wards page: the speaking Sunday is chosen in the ward form and kept', async ({ browser, request }) => {
  const admin = await adminApi(request)
  const name = unique('Sunday ')
  const created = await createWard(admin, name)
  expect(created.speaking_sunday).toBe(1)
  const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  await page.goto('/manage/wards')
  await page
    .getByRole('row', { name: new RegExp(name) })
    .getByRole('button', { name: `Edit ${name}` })
    .click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByLabel('High council speaker comes on')).toHaveValue('1')
  await dialog
    .getByLabel('High council speaker comes on')
    .selectOption({ label: '5th Sunday (the last when there is no 5th)' })
  await dialog.getByRole('button', { name: 'Save ward' }).click()
  await expect(dialog).toBeHidden()
  expect((await admin.req('GET', `/api/wards/${created.id}`)).speaking_sunday).toBe(5)
  await page
    .getByRole('row', { name: new RegExp(name) })
    .getByRole('button', { name: `Edit ${name}` })
    .click()
  await expect(page.getByRole('dialog').getByLabel('High council speaker comes on')).toHaveValue('5')
  await page.context().close()
})
