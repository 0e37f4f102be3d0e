import { expect, test } from '@playwright/test'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, createUser, navigateTo, signInPage, unique } from './api'

test('wards: create with a meeting time and a bishop, then edit', async ({ browser, request }) => {
  const admin = await adminApi(request)
  const bishop = await createUser(request, admin, unique('Bish'), 'Oduya')
  const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  await navigateTo(page, 'Wards')
  await expect(page.getByRole('heading', { name: 'Wards', exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'New ward' }).click()
  const dialog = page.getByRole('dialog')
  const name = unique('Willow Creek ')
  await dialog.getByLabel('Name').fill(name)
  await dialog.getByLabel('Sacrament meeting starts at').fill('09:30')
  await dialog.getByRole('combobox', { name: 'Bishop' }).fill(bishop.fname)
  await dialog.getByRole('option', { name: new RegExp(bishop.fname) }).click()
  await dialog.getByRole('button', { name: 'Create ward' }).click()
  await expect(dialog).toBeHidden()
  const row = page.getByRole('row', { name: new RegExp(name) })
  await expect(row).toContainText('9:30')
  await expect(row).toContainText(`${bishop.fname} Oduya`)
  // A fresh API session: GET /wards/ is optional-auth, so a token expired by now
  // (5 s in e2e) would read it as an anonymous caller, without bishops.
  const wards = await (await adminApi(request)).req('GET', '/api/wards/')
  const created = wards.find((w: any) => w.name === name)
  expect(created.start_time).toBe(570)
  expect(created.bishop_id).toBe(bishop.id)

  await row.getByRole('button', { name: `Edit ${name}` }).click()
  await page.getByRole('dialog').getByLabel('Sacrament meeting starts at').fill('13:00')
  await page.getByRole('dialog').getByRole('button', { name: 'Clear' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Save ward' }).click()
  await expect(row).toContainText('1:00')
  await expect(row).toContainText('Vacant')
  await page.context().close()
})

test('callings: create a user-made calling with grants, edit it; system callings are read-only', async ({
  browser,
  request,
}) => {
  await adminApi(request)
  const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  await navigateTo(page, 'Callings')
  await expect(page.getByRole('heading', { name: 'Callings' })).toBeVisible()
  await page.getByRole('button', { name: 'New calling' }).click()
  const dialog = page.getByRole('dialog')
  const name = unique('Stake Music Chair ')
  await dialog.getByLabel('Name').fill(name)
  await dialog.getByLabel('Seats').fill('2')
  await dialog.getByLabel(/Public/).check()
  await dialog.getByLabel('proposals.view').check()
  await dialog.getByRole('button', { name: 'Create calling' }).click()
  await expect(page.getByRole('heading', { name })).toBeVisible()
  await expect(page.locator('.perm', { hasText: 'proposals.view' })).toBeVisible()
  await expect(page.getByRole('button', { name: /^Fill seat/ })).toHaveCount(2)

  await page.getByRole('button', { name: 'Edit' }).click()
  await page.getByRole('dialog').getByLabel('Name').fill(`${name} (choir)`)
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('heading', { name: `${name} (choir)` })).toBeVisible()

  // A duplicate name is refused by the server and said so.
  await page.goto('/manage/callings')
  await page.getByRole('button', { name: 'New calling' }).click()
  await page.getByRole('dialog').getByLabel('Name').fill('High Councilor')
  await page.getByRole('dialog').getByRole('button', { name: 'Create calling' }).click()
  await expect(page.getByRole('dialog').getByRole('alert')).toBeVisible()
  await page.keyboard.press('Escape')

  await page.getByLabel('Kind').selectOption('system')
  await page.getByRole('link', { name: 'Stake Clerk' }).click()
  await expect(page.getByRole('heading', { name: 'Stake Clerk' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0)
  await page.context().close()
})

test('profile: own name, sessions, sign out everywhere; the public page needs no sign-in', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const user = await createUser(request, admin, unique('Prof'), 'Ile')
  const other = await signInPage(browser, user) // a second device
  const page = await signInPage(browser, user)
  await page.getByRole('button', { name: /Account menu/ }).click()
  await page.getByRole('menuitem', { name: 'Profile and sessions' }).click()
  await page.getByLabel('Last name').fill('Ilesanmi')
  await page.getByRole('button', { name: 'Save profile' }).click()
  await expect(page.getByText('Profile saved.')).toBeVisible()
  await expect(page.getByRole('button', { name: /Account menu for .* Ilesanmi/ })).toBeVisible()
  // Two browsers, plus the API session the helper used to choose the password.
  await expect(page.locator('.sessions li')).toHaveCount(3)
  await expect(page.locator('.sessions li', { hasText: 'This device' })).toHaveCount(1)

  await page.getByRole('button', { name: 'Sign out everywhere' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Sign out everywhere' }).click()
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  // The other device is signed out at its next request (its refresh fails).
  await other.reload()
  await expect(other.getByRole('heading', { name: 'Sign in' })).toBeVisible()

  await page.goto('/public')
  await expect(page.getByRole('heading', { name: 'Wards and meeting times' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Stake leaders' })).toBeVisible()
  // Leaders by office, as people name them: the president first, bishops after the high council.
  const leaders = page.getByRole('region', { name: 'Stake leaders' }).getByRole('listitem')
  await expect(leaders.first()).toContainText('Stake President')
  const texts = await leaders.allInnerTexts()
  const at = (name: string) => texts.findIndex((x) => x.startsWith(name))
  expect(at('Stake President')).toBeLessThan(at('High Councilor'))
  expect(at('High Councilor')).toBeLessThan(at('Bishop'))
  await page.context().close()
  await other.context().close()
})

test('users: edit, grant access, reset the password, deactivate and activate', async ({ browser, request }) => {
  const admin = await adminApi(request)
  const user = await createUser(request, admin, unique('Ruth'), 'Abara')
  const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  await page.goto(`/manage/users?q=${encodeURIComponent(user.fname)}`)
  const row = page.getByRole('row', { name: new RegExp(user.fname) })
  await expect(row).toBeVisible()
  const actions = () => row.getByRole('button', { name: /^Actions for/ })

  await actions().click()
  await page.getByRole('menuitem', { name: 'Edit' }).click()
  await page.getByRole('dialog').getByLabel('Last name').fill('Abara-Nwosu')
  await page.getByRole('dialog').getByLabel('Email').fill('not-an-email')
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('dialog').getByText('Enter a valid email address.')).toBeVisible()
  await page.getByRole('dialog').getByLabel('Email').fill(user.email)
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click()
  await expect(row).toContainText('Abara-Nwosu')

  await actions().click()
  await page.getByRole('menuitem', { name: 'Access' }).click()
  // Permissions read in plain words, each with its one-line explanation.
  await expect(page.getByRole('dialog').getByLabel('Manage the speaking schedule')).toHaveAccessibleDescription(
    /monthly topics/,
  )
  await page.getByRole('dialog').getByLabel('Manage the speaking schedule').check()
  await page.getByRole('dialog').getByRole('button', { name: 'Save access' }).click()
  await expect(page.getByRole('dialog')).toBeHidden()
  expect((await admin.req('GET', `/api/users/${user.id}/permissions`)).permissions).toContain('speaking.manage')

  await actions().click()
  await page.getByRole('menuitem', { name: 'Reset password' }).click()
  // Without mail the administrator gets a link to hand over, never a password to read off the screen.
  await expect(page.getByRole('dialog').getByLabel('Temporary password')).toHaveCount(0)
  await page.getByRole('dialog').getByRole('button', { name: 'Make a reset link' }).click()
  const link = await page.getByRole('dialog').getByLabel('Reset link').inputValue()
  expect(link).toMatch(/\/reset-password#[A-Za-z0-9_-]{43}$/)
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click()
  const confirmed = await request.post('/api/auth/password-reset/confirm', {
    data: { token: link.slice(link.indexOf('#') + 1), new_password: 'Handed-Over-Link-77' },
  })
  expect(confirmed.ok()).toBe(true)
  const login = await request.post('/api/auth/login', {
    form: { username: user.email, password: 'Handed-Over-Link-77' },
  })
  expect(login.ok()).toBe(true)

  await actions().click()
  await page.getByRole('menuitem', { name: 'Deactivate' }).click()
  // Deactivation asks first and says what it does.
  const confirm = page.getByRole('dialog')
  await expect(confirm).toContainText('signed out on every device')
  await confirm.getByRole('button', { name: 'Deactivate' }).click()
  await expect(confirm).toBeHidden()
  await expect(row).toContainText('Inactive')
  await actions().click()
  await page.getByRole('menuitem', { name: 'Activate' }).click()
  await expect(row).not.toContainText('Inactive')
  await page.context().close()
})
