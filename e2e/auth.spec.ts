import { expect, test, type Page } from '@playwright/test'
import { adminApi, createUser, createUserRaw } from './api'

/** Records, inside the page, whether the sign-in form was ever rendered. */
async function watchForSignIn(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __sawSignIn?: boolean }
    w.__sawSignIn = false
    new MutationObserver(() => {
      if (document.getElementById('signin-title')) w.__sawSignIn = true
    }).observe(document, { childList: true, subtree: true })
  })
}
const sawSignIn = (page: Page) => page.evaluate(() => (window as unknown as { __sawSignIn?: boolean }).__sawSignIn)

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/signin')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

test('sign-in with a temporary password forces a password change, then shows the board', async ({ page, request }) => {
  const admin = await adminApi(request)
  const user = await createUserRaw(admin, 'Forced')

  await signIn(page, user.email, user.password)
  await expect(page).toHaveURL(/\/change-password$/)
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible()

  // Nothing else is reachable until the password is changed.
  await page.goto('/board')
  await expect(page).toHaveURL(/\/change-password$/)

  // Client-side validation first, then the real change.
  await page.getByLabel('Current password').fill(user.password)
  await page.getByLabel('New password', { exact: true }).fill('short')
  await page.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByText('Use at least 8 characters.')).toBeVisible()

  const newPassword = 'A-much-better-passphrase-42'
  await page.getByLabel('New password', { exact: true }).fill(newPassword)
  await page.getByLabel('Repeat new password').fill(newPassword)
  await page.getByRole('button', { name: 'Change password' }).click()
  await expect(page).toHaveURL(/\/board$/)
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
})

test('wrong credentials are explained without revealing which part was wrong', async ({ page }) => {
  await signIn(page, 'nobody@example.com', 'not-the-password')
  await expect(page.getByRole('alert')).toContainText('Incorrect email or password')
  await expect(page).toHaveURL(/\/signin/)
})

test('a reload keeps the user signed in without showing sign-in, and the token is never stored', async ({
  page,
  request,
}) => {
  const admin = await adminApi(request)
  const user = await createUser(request, admin, 'Reload')
  await watchForSignIn(page)
  await signIn(page, user.email, user.password)
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()

  const refresh = page.waitForResponse((r) => r.url().includes('/api/auth/refresh') && r.status() === 200)
  await page.reload()
  await refresh
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
  expect(await sawSignIn(page)).toBe(false)
  await expect(page).toHaveURL(/\/board$/)

  // The access token is in memory only: nothing a script could read survives in storage.
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))
  expect(stored).not.toMatch(/eyJ/)
  const cookies = await page.context().cookies()
  const refreshCookie = cookies.find((c) => c.name === 'refresh_token')
  expect(refreshCookie?.httpOnly).toBe(true)
})

test('an expired access token is refreshed transparently', async ({ page, request }) => {
  const admin = await adminApi(request)
  const user = await createUser(request, admin, 'Expiry')
  await watchForSignIn(page)
  await signIn(page, user.email, user.password)
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()

  await page.evaluate(() => ((window as unknown as { __sawSignIn?: boolean }).__sawSignIn = false))
  const statuses: { url: string; status: number }[] = []
  page.on('response', (r) => {
    if (r.url().includes('/api/')) statuses.push({ url: r.url(), status: r.status() })
  })
  const ttl = Number(process.env.E2E_TOKEN_TTL ?? 5)
  await page.waitForTimeout((ttl + 1.5) * 1000)

  // Several requests fire at once with the expired token; one refresh serves them all.
  await page.getByRole('link', { name: 'Speaking' }).click()
  await expect(page.getByRole('heading', { name: /Speaking schedule/ })).toBeVisible()
  await expect(page.getByRole('table')).toBeVisible()
  await expect.poll(() => statuses.some((s) => s.url.includes('/api/auth/refresh') && s.status === 200)).toBe(true)
  expect(statuses.some((s) => s.status === 401)).toBe(true)
  expect(statuses.filter((s) => s.url.includes('/api/auth/refresh')).length).toBe(1)
  expect(await sawSignIn(page)).toBe(false)
  await expect(page.getByRole('alert')).toHaveCount(0)
})

test('logout returns to sign-in and a reload stays signed out', async ({ page, request }) => {
  const admin = await adminApi(request)
  const user = await createUser(request, admin, 'Logout')
  await signIn(page, user.email, user.password)
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()

  await page.getByRole('button', { name: /Account menu/ }).click()
  await page.getByRole('menuitem', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/signin/)
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()

  await page.reload()
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await page.goto('/board')
  await expect(page).toHaveURL(/\/signin\?next=%2Fboard/)
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
})

test('too many failed sign-ins are explained with the wait from Retry-After', async ({ page, request }) => {
  const admin = await adminApi(request)
  const user = await createUser(request, admin, 'Throttle')
  await page.goto('/signin')
  let throttled = false
  for (let i = 0; i < 8 && !throttled; i++) {
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password').fill(`wrong-password-${i}`)
    const answered = page.waitForResponse((r) => r.url().includes('/api/auth/login'))
    await page.getByRole('button', { name: 'Sign in' }).click()
    throttled = (await answered).status() === 429
    await expect(page.getByRole('alert')).toContainText(
      throttled ? 'Too many sign-in attempts' : 'Incorrect email or password',
    )
  }
  expect(throttled).toBe(true)
  await expect(page.getByRole('alert')).toContainText(/try again in \d+ (second|minute)/)
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeDisabled()
})
