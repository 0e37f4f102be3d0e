import { expect, test } from '@playwright/test'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, navigateTo, signInPage, unique } from './api'

test('an administrator creates a user (temporary password shown once) and fills a seat with them', async ({
  browser,
  request,
}) => {
  await adminApi(request)
  const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])

  // Create the user.
  await navigateTo(page, 'Users')
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible()
  await page.getByRole('button', { name: 'New user' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: 'Create user' }).click()
  await expect(dialog.getByText('Enter a first name.')).toBeVisible()
  const fname = unique('Nadia')
  const email = `${fname.toLowerCase()}@example.com`
  await dialog.getByLabel('First name').fill(fname)
  await dialog.getByLabel('Last name').fill('Okafor')
  await dialog.getByLabel('Email').fill(email)
  await dialog.getByRole('button', { name: 'Create user' }).click()
  const secret = dialog.getByLabel('Temporary password')
  await expect(secret).toBeVisible()
  const temporary = await secret.inputValue()
  expect(temporary.length).toBeGreaterThanOrEqual(8)
  await dialog.getByRole('button', { name: 'Copy' }).click()
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(temporary)
  await dialog.getByRole('button', { name: 'Done' }).click()
  await page.getByLabel('Search').fill(fname)
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await expect(page.getByRole('cell', { name: email })).toBeVisible()

  // Fill a High Councilor seat with the new user, through the user picker.
  await navigateTo(page, 'Callings')
  await expect(page.getByRole('heading', { name: 'Callings' })).toBeVisible()
  await page.getByLabel('Search').fill('High Councilor')
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await expect(page).toHaveURL(/q=High/)
  await expect(page.getByRole('table').getByRole('link')).toHaveCount(1)
  await page.getByRole('link', { name: 'High Councilor' }).click()
  await expect(page.getByRole('heading', { name: 'High Councilor' })).toBeVisible()
  await page
    .getByRole('button', { name: /^Fill seat \d+$/ })
    .first()
    .click()
  const fill = page.getByRole('dialog')
  await fill.getByRole('combobox', { name: 'Person' }).fill(fname)
  await fill.getByRole('option', { name: new RegExp(`${fname} Okafor`) }).click()
  await fill.getByRole('button', { name: 'Fill seat' }).click()
  await expect(fill).toBeHidden()
  await expect(page.getByRole('cell', { name: `${fname} Okafor` })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'History' })).toBeVisible()
  await page.context().close()

  // The new user signs in with the temporary password and must choose a new one;
  // the server's 422 for a common password shows next to the field.
  const context = await browser.newContext()
  const up = await context.newPage()
  await up.goto('/signin')
  await up.getByLabel('Email').fill(email)
  await up.getByLabel('Password').fill(temporary)
  await up.getByRole('button', { name: 'Sign in' }).click()
  await expect(up).toHaveURL(/\/change-password$/)
  await up.getByLabel('Current password').fill(temporary)
  await up.getByLabel('New password', { exact: true }).fill('password123')
  await up.getByLabel('Repeat new password').fill('password123')
  await up.getByRole('button', { name: 'Change password' }).click()
  const newPwField = up.locator('.field', { has: up.getByLabel('New password', { exact: true }) })
  await expect(newPwField.locator('.field-error')).toBeVisible()
  await up.getByLabel('New password', { exact: true }).fill('An uncommon phrase 77')
  await up.getByLabel('Repeat new password').fill('An uncommon phrase 77')
  await up.getByRole('button', { name: 'Change password' }).click()
  await expect(up.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
  // As a high councilor now, the speaking grid highlights the new user's row.
  await up.getByRole('link', { name: 'Speaking' }).click()
  await expect(up.locator('tr.mine')).toHaveCount(1)
  await context.close()
})
