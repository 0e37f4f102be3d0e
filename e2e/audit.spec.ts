import { expect, test, type Page } from '@playwright/test'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, createUser, createWard, navigateTo, signInPage, unique } from './api'

/** docs/api-reference.md §13: the audit page lists the changes just made, in plain words, and its filters narrow it. */

const ADMIN = 'Stake Administrator'

async function signInOnPhone(browser: Parameters<typeof signInPage>[0]): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  const page = await context.newPage()
  await page.goto('/signin')
  await page.getByLabel('Email').fill(ADMIN_EMAIL)
  await page.getByLabel('Password').fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
  return page
}

test('desktop: the audit log lists a change just made; who, what and when filter it', async ({ browser, request }) => {
  const admin = await adminApi(request)
  const ward = unique('Audit ')
  await createWard(admin, ward)
  const person = await createUser(request, admin, unique('Zed'), 'Audited')
  // A failed sign-in: no actor, names the account.
  expect(
    (await request.post('/api/auth/login', { form: { username: person.email, password: 'wrong-one' } })).status(),
  ).toBe(401)

  const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  await navigateTo(page, 'Audit log')
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible()
  const list = page.getByRole('list', { name: 'Audit log' })
  const wardLine = list.getByText(`${ADMIN} created the ward ${ward}`)
  const failedLine = list.getByText(`Failed sign-in for ${person.fname} Audited (wrong password)`)
  const createdLine = list.getByText(`${ADMIN} created the account of ${person.fname} Audited`)
  await expect(wardLine).toBeVisible()
  await expect(failedLine).toBeVisible()
  await expect(createdLine).toBeVisible()
  await expect(list.getByText(`${person.fname} Audited changed their own password`)).toBeVisible()

  // The raw detail opens under the sentence.
  const item = list.getByRole('listitem').filter({ hasText: `created the ward ${ward}` })
  await item.getByText('Details').click()
  await expect(item.locator('pre')).toContainText('"action": "ward.create"')
  await expect(item.locator('pre')).toContainText(`"name": "${ward}"`)

  // What: a group in plain words.
  await page.getByLabel('What').selectOption({ label: 'All: Wards' })
  await expect(wardLine).toBeVisible()
  await expect(createdLine).toBeHidden()
  await expect(failedLine).toBeHidden()
  await expect(page).toHaveURL(/what=ward\./)

  // …or one action.
  await page.getByLabel('What').selectOption({ label: 'Failed sign-in' })
  await expect(failedLine).toBeVisible()
  await expect(wardLine).toBeHidden()

  // Who: the person's own password change, not the administrator's changes.
  await page.getByLabel('What').selectOption({ label: 'Everything' })
  await page.getByRole('combobox', { name: 'Who' }).fill(person.fname)
  await page.getByRole('option', { name: new RegExp(`${person.fname} Audited`) }).click()
  await expect(list.getByText(`${person.fname} Audited changed their own password`)).toBeVisible()
  await expect(wardLine).toBeHidden()

  // When: nothing happened tomorrow; today holds the change.
  await page.getByRole('button', { name: 'Clear filters' }).click()
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
  await page.getByLabel('From', { exact: true }).fill(day(2))
  await expect(page.getByText('No entries match.')).toBeVisible()
  await page.getByLabel('From', { exact: true }).fill(day(-1))
  await page.getByLabel('To', { exact: true }).fill(day(1))
  await expect(wardLine).toBeVisible()
  await page.context().close()
})

test('phone: the audit page lists a change just made and filters it', async ({ browser, request }) => {
  const admin = await adminApi(request)
  const ward = unique('Phone audit ')
  await createWard(admin, ward)
  const page = await signInOnPhone(browser)
  await page.goto('/manage/audit')
  const list = page.getByRole('list', { name: 'Audit log' })
  const line = list.getByText(`${ADMIN} created the ward ${ward}`)
  await expect(line).toBeVisible()
  // Nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await page.getByLabel('What').selectOption({ label: 'All: Users' })
  await expect(line).toBeHidden()
  await page.getByLabel('What').selectOption({ label: 'Ward created' })
  await expect(line).toBeVisible()
  await page.context().close()
})

test('the audit page is for users.manage only', async ({ browser, request }) => {
  const admin = await adminApi(request)
  const plain = await createUser(request, admin, 'Plain', 'Reader')
  const page = await signInPage(browser, plain)
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' })).toHaveCount(0)
  await page.goto('/manage/audit')
  await expect(page.getByRole('heading', { name: 'Not available' })).toBeVisible()
  await page.context().close()
})

test('in Spanish: the audit page and its sentences speak the reader’s language', async ({ browser, request }) => {
  const admin = await adminApi(request)
  const reader = await createUser(request, admin, 'Lectora', 'Auditoría')
  await admin.req('PUT', `/api/users/${reader.id}/permissions`, { permissions: ['users.manage'] })
  await admin.req('PUT', `/api/users/${reader.id}`, {
    email: reader.email,
    fname: reader.fname,
    lname: reader.lname,
    language: 'es',
  })
  const ward = unique('Barrio ')
  await createWard(admin, ward)

  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto('/signin')
  await page.getByLabel(/Email|Correo/).fill(reader.email)
  await page.getByLabel(/Password|Contraseña/).fill(reader.password)
  await page.getByRole('button', { name: /Sign in|Iniciar sesión/ }).click()
  await navigateTo(page, 'Auditoría', 'Más')
  await expect(page.getByRole('heading', { name: 'Registro de auditoría' })).toBeVisible()
  await expect(page.getByText(`${ADMIN} creó el barrio ${ward}`)).toBeVisible()
  await page.getByLabel('Qué').selectOption({ label: 'Todo: Barrios' })
  await expect(page.getByText(`${ADMIN} creó el barrio ${ward}`)).toBeVisible()
  await context.close()
})
