import { expect, test } from '@playwright/test'
import { expectAccessible } from './axe'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, signInPage } from './api'

/**
 * Plain words: the profile says what the person can do as people say it (no
 * permission keys); a new ward's Bishop picker, in a stake with nobody but
 * its administrator yet, says where people come from. In both languages.
 */

test('the profile lists what one can do in plain words, in English and Spanish', async ({ browser, request }) => {
  await adminApi(request)
  const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  await page.goto('/profile')
  const roles = page.getByRole('region', { name: 'Your callings and access' })
  await expect(roles.getByRole('heading', { name: 'What you can do here' })).toBeVisible()
  await expect(roles).toContainText('Add people, invite them and give them access')
  await expect(roles).toContainText('Plan who speaks where each month')
  await expect(roles).not.toContainText('users.manage')
  await expect(roles.locator('code')).toHaveCount(0)

  await page.getByRole('radio', { name: 'Español' }).check()
  const papeles = page.getByRole('region', { name: 'Sus llamamientos y su acceso' })
  await expect(papeles.getByRole('heading', { name: 'Lo que puede hacer aquí' })).toBeVisible()
  await expect(papeles).toContainText('Agregar personas, invitarlas y darles acceso')
  await page.getByRole('radio', { name: 'English' }).check()
  await expect(roles).toBeVisible()
  await page.context().close()
})

test('a new ward in a stake with nobody to choose: the Bishop picker says to import or add people first', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const me = await admin.req('GET', '/api/auth/me')
  const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  // The stake as on its first day: its administrator is the only person in it.
  await page.route(/\/api\/users\/\?/, (route) =>
    route.fulfill({ json: [me], headers: { 'X-Total-Count': '1', 'Access-Control-Expose-Headers': 'X-Total-Count' } }),
  )
  await page.goto('/manage/wards')
  await page.getByRole('button', { name: 'New ward' }).click()
  const dialog = page.getByRole('dialog')
  const hint = dialog.getByRole('note')
  await expect(hint).toContainText("No one to choose yet: bring the stake's people in first.")
  await expect(hint.getByRole('link', { name: 'Import from LCR' })).toHaveAttribute('href', '/manage/import')
  await expect(hint.getByRole('link', { name: 'Add people' })).toHaveAttribute('href', '/manage/users')
  await expectAccessible(page, 'the new ward dialog', '[role="dialog"]')
  await dialog.getByRole('button', { name: 'Cancel' }).click()

  // With people in the stake, no hint.
  await page.unroute(/\/api\/users\/\?/)
  await page.reload()
  await page.getByRole('button', { name: 'New ward' }).click()
  await expect(page.getByRole('dialog').getByLabel('Name')).toBeVisible()
  await expect(page.getByRole('dialog').getByRole('note')).toHaveCount(0)
  await page.context().close()
})
