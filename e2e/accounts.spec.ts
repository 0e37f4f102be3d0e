import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Browser, type CDPSession, type Page } from '@playwright/test'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, createUser, unique } from './api'

/**
 * Accounts without an administrator (docs/api-reference.md §16) in
 * real Chromium: passkeys with the DevTools protocol's virtual authenticator
 * (a platform authenticator with resident keys and user verification), an
 * invitation followed to its Welcome page, the forgotten-password pages; at
 * phone and desktop size, axe on every new page.
 *
 * WebAuthn needs a domain, not an IP address, as its relying party: these
 * tests open the server as `localhost` (a secure context on plain http).
 */

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
] as const

async function expectAccessible(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
  const bad = results.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  expect.soft(bad, `${what}: critical or serious axe violations`).toEqual([])
}

async function open(browser: Browser, baseURL: string | undefined, size: (typeof SIZES)[number]) {
  const context = await browser.newContext({
    baseURL: baseURL!.replace('127.0.0.1', 'localhost'),
    viewport: size.viewport,
    isMobile: size.isMobile,
    hasTouch: size.hasTouch,
  })
  return context.newPage()
}

/** Chromium's virtual authenticator: like a phone's fingerprint or a laptop's face sign-in. */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return { cdp, authenticatorId }
}

async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto('/signin')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: /Account menu/ }).click()
  await page.getByRole('menuitem', { name: 'Sign out' }).click()
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
}

for (const size of SIZES) {
  test(`passkeys on ${size.name}: register in the profile, sign out, sign in with it, remove it`, async ({
    browser,
    request,
    baseURL,
  }) => {
    const admin = await adminApi(request)
    const user = await createUser(request, admin, unique('Pia'))
    const page = await open(browser, baseURL, size)
    const { cdp, authenticatorId } = await virtualAuthenticator(page)

    await signInWithPassword(page, user.email, user.password)
    await page.goto('/profile')
    const section = page.getByRole('region', { name: 'Passkeys' })
    await expect(section.getByText('You have no passkeys yet.')).toBeVisible()
    await section.getByRole('button', { name: 'Add a passkey' }).click()
    await expect(page.getByText(/Passkey added/)).toBeVisible()
    await expect(section.getByTestId('passkey')).toHaveCount(1)
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
    expect(credentials).toHaveLength(1)
    expect(credentials[0]!.isResidentCredential).toBe(true)
    await expectAccessible(page, `profile with a passkey (${size.name})`)

    // Rename it.
    await section.getByRole('button', { name: 'Rename' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Name of the passkey').fill('My phone')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(section.getByText('My phone')).toBeVisible()

    // The button: the sign-in page's conditional request (autofill) is held back, so the button is what signs in.
    let autofill = false
    await page.route('**/api/auth/passkey-login/options', (route) => (autofill ? route.continue() : route.abort()))
    await signOut(page)
    await expectAccessible(page, `sign-in page (${size.name})`)
    autofill = true
    await page.getByRole('button', { name: 'Use a passkey' }).click()
    await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
    await page.goto('/profile')
    await expect(section.getByText(/last used/)).toBeVisible()
    // The counter moved on in the authenticator and on the server.
    const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
    expect(after.credentials[0]!.signCount).toBeGreaterThan(0)

    // Conditional UI: on the sign-in page the passkey is offered with the email field's suggestions; the
    // virtual authenticator answers that request at once, as a user picking the passkey there would.
    await page.getByRole('button', { name: /Account menu/ }).click()
    await page.getByRole('menuitem', { name: 'Sign out' }).click()
    await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
    expect(new URL(page.url()).pathname).toBe('/board')
    await page.goto('/profile')

    // Remove it (after a confirmation); it signs nobody in any more.
    await section.getByRole('button', { name: 'Remove' }).click()
    await expect(page.getByRole('dialog')).toContainText('You will no longer be able to sign in with “My phone”')
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click()
    await expect(section.getByText('You have no passkeys yet.')).toBeVisible()
    autofill = false
    await signOut(page)
    autofill = true
    await page.getByRole('button', { name: 'Use a passkey' }).click()
    await expect(page.getByRole('alert')).toContainText('That passkey did not sign you in')
    await page.context().close()
  })
}

test('an invitation without mail: the administrator passes the link on; the Welcome page sets the password and signs in', async ({
  browser,
  request,
  baseURL,
}) => {
  const admin = await adminApi(request)
  const fname = unique('Ines')
  const email = `${fname.toLowerCase()}@example.com`

  // The administrator adds the leader with "Send an invitation": no temporary password, the link instead.
  const page = await open(browser, baseURL, SIZES[1])
  await signInWithPassword(page, ADMIN_EMAIL, ADMIN_PASSWORD)
  await page.goto('/manage/users')
  await page.getByRole('button', { name: 'New user' }).click()
  const form = page.getByRole('dialog')
  await form.getByLabel('First name').fill(fname)
  await form.getByLabel('Last name').fill('Vidal')
  await form.getByLabel('Email').fill(email)
  await form.getByLabel('Send an invitation (they choose their own password)').check()
  await form.getByRole('button', { name: 'Create user' }).click()
  const first = await form.getByLabel('Invitation link').inputValue()
  expect(first).toMatch(/\/welcome#[A-Za-z0-9_-]{43}$/)
  await expect(form.getByLabel('Temporary password')).toHaveCount(0)
  await form.getByRole('button', { name: 'Done' }).click()

  // The users page shows who has not accepted, and sends again (the first link stops working).
  await page.goto(`/manage/users?q=${encodeURIComponent(fname)}`)
  await expect(page.getByText('Invitation not accepted')).toBeVisible()
  await expectAccessible(page, 'users page with a pending invitation')
  await page.getByRole('button', { name: `Actions for ${fname} Vidal` }).click()
  await page.getByRole('menuitem', { name: 'Resend invitation' }).click()
  const dialog = page.getByRole('dialog', { name: 'Invitation link' })
  const second = await dialog.getByLabel('Invitation link').inputValue()
  expect(second).not.toBe(first)
  await dialog.getByRole('button', { name: 'Done' }).click()

  const users = (await admin.req('GET', `/api/users/?q=${encodeURIComponent(fname)}`)) as { id: number }[]
  for (const size of SIZES) {
    const invited = await open(browser, baseURL, size)
    if (size.name === 'phone') {
      // The voided first link.
      const old = new URL(first)
      await invited.goto(`${old.pathname}${old.hash}`)
      await expect(invited.getByRole('heading', { name: 'This invitation link no longer works' })).toBeVisible()
      await expectAccessible(invited, `voided invitation (${size.name})`)
    }
    // Phone: the link from "Resend"; desktop: one more (the phone accepted the other).
    const link = new URL(
      size.name === 'phone' ? second : (await admin.req('POST', `/api/users/${users[0]!.id}/invite`)).url,
    )
    await invited.goto(`${link.pathname}${link.hash}`)
    await expect(invited.getByRole('heading', { name: 'Welcome' })).toBeVisible()
    await expect(invited.getByText(email)).toBeVisible()
    expect(invited.url()).not.toContain('#') // the token leaves the address bar
    await expectAccessible(invited, `Welcome page (${size.name})`)
    await invited.getByLabel('Password', { exact: true }).fill('short')
    await invited.getByRole('button', { name: 'Save and sign in' }).click()
    await expect(invited.getByText('Use at least 8 characters.')).toBeVisible()
    await invited.getByLabel('Password', { exact: true }).fill(`Welcome-${size.name}-2026`)
    await invited.getByLabel('Repeat password').fill(`Welcome-${size.name}-2026`)
    await invited.getByRole('button', { name: 'Save and sign in' }).click()
    await expect(invited.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
    // The same link again: spent.
    await invited.goto(`${link.pathname}${link.hash}`)
    await expect(invited.getByRole('heading', { name: 'This invitation link no longer works' })).toBeVisible()
    await invited.context().close()
  }
  await page.reload()
  await expect(page.getByRole('cell', { name: email })).toBeVisible()
  await expect(page.getByText('Invitation not accepted')).toHaveCount(0)
  await page.context().close()
})

for (const size of SIZES) {
  test(`forgotten password pages on ${size.name}: the link on the sign-in page, the same answer, a spent link`, async ({
    browser,
    baseURL,
  }) => {
    const page = await open(browser, baseURL, size)
    await page.goto('/signin')
    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible()
    await expectAccessible(page, `forgot password (${size.name})`)
    // The e2e server sends no mail: the page sends the person to the administrator, alike for every address.
    const answers: string[] = []
    for (const email of [`${unique('nobody')}@example.com`, ADMIN_EMAIL]) {
      await page.goto('/forgot-password')
      await page.getByLabel('Email').fill(email)
      await page.getByRole('button', { name: 'Send the link' }).click()
      const status = page.getByRole('status').filter({ hasText: "Ask your stake's administrator" })
      await expect(status).toBeVisible()
      await expect(status).toContainText('reset link')
      answers.push(await page.locator('main').innerText())
    }
    expect(answers[1]).toBe(answers[0])
    await expectAccessible(page, `forgot password, ask the administrator (${size.name})`)

    await page.goto(`/reset-password#${'A'.repeat(43)}`)
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible()
    await expectAccessible(page, `new password (${size.name})`)
    await page.getByLabel('New password', { exact: true }).fill('A-new-pass-2026')
    await page.getByLabel('Repeat new password').fill('A-new-pass-2026')
    await page.getByRole('button', { name: 'Change password' }).click()
    await expect(page.getByRole('heading', { name: 'This link no longer works' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible()
    await expectAccessible(page, `spent reset link (${size.name})`)
    await page.context().close()
  })
}
