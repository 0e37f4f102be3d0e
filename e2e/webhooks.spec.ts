import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, createUser, navigateTo, unique } from './api'

/**
 * The Webhooks page (docs/api-reference.md §11) on a desktop and on a phone, against a
 * real receiver in this process on 127.0.0.1 (the e2e server runs with
 * WEBHOOK_ALLOW_PRIVATE=true): create (the secret shown once, with a
 * warning and a copy button), send a test that the receiver verifies,
 * the deliveries in plain words, edit, delete with confirmation.
 */

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } }

interface Received {
  path: string
  headers: http.IncomingHttpHeaders
  body: string
}

let server: http.Server
let base = ''
const received: Received[] = []

test.beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (c: Buffer) => chunks.push(c))
    request.on('end', () => {
      received.push({ path: request.url ?? '/', headers: request.headers, body: Buffer.concat(chunks).toString() })
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** What a receiver does: HMAC-SHA256(secret, timestamp + "." + body), compared in constant time. */
function verifies(secret: string, r: Received): boolean {
  const hex = crypto.createHmac('sha256', secret).update(`${r.headers['x-stake-timestamp']}.${r.body}`).digest('hex')
  const expected = Buffer.from(`sha256=${hex}`)
  const given = Buffer.from(String(r.headers['x-stake-signature']))
  return expected.length === given.length && crypto.timingSafeEqual(expected, given)
}

/** No accessibility violations axe can find in the given part of the page. */
async function expectAccessible(page: Page, selector: string) {
  const results = await new AxeBuilder({ page }).include(selector).analyze()
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

async function signIn(browser: Browser, account: { email: string; password: string }, viewport: object) {
  const context = await browser.newContext({ viewport: viewport as { width: number; height: number } })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const page = await context.newPage()
  await page.goto('/signin')
  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Password').fill(account.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
  return page
}

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test(`${name}: a manager creates a webhook, sees its secret once, tests, reads deliveries, edits and deletes it`, async ({
    browser,
    request,
  }) => {
    const admin = await adminApi(request)
    const path = `/${unique(name)}`
    const page = await signIn(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, viewport)
    // A phone reaches the page through the tab bar's More; a desktop through the top bar.
    if (name === 'phone') {
      const tabs = page.getByRole('navigation', { name: 'Sections' })
      await tabs.getByRole('button', { name: 'More' }).click()
      await tabs.getByRole('link', { name: 'Webhooks' }).click()
    } else {
      await navigateTo(page, 'Webhooks')
    }
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible()

    await page.getByRole('button', { name: 'New webhook' }).click()
    let dialog = page.getByRole('dialog')
    await dialog.getByLabel('Address (URL)').fill(`${base}${path}`)
    await dialog.getByLabel('New comment').check()
    await expect(dialog.getByLabel('Stage changed')).toBeChecked()
    await expect(dialog.getByLabel('Include the name of the person proposed')).not.toBeChecked()
    await dialog.getByRole('button', { name: 'Create webhook' }).click()

    dialog = page.getByRole('dialog', { name: 'Webhook created' })
    await expect(dialog.getByText('Copy this signing secret now. It will not be shown again.')).toBeVisible()
    await expectAccessible(page, '[role="dialog"]')
    const secret = await dialog.getByLabel('Signing secret').inputValue()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
    await dialog.getByRole('button', { name: 'Copy secret' }).click()
    await expect(page.getByText('Secret copied.')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret)
    await dialog.getByRole('button', { name: 'I have copied it' }).click()
    await expect(dialog).toBeHidden()

    // Never shown again: not on the page, not in the list the API gives.
    await page.reload()
    const row = page.getByTestId('webhook-row').filter({ hasText: path.slice(1, 15) })
    await expect(row).toBeVisible()
    await expect(row).toContainText('Stage changed')
    await expect(row).toContainText('New comment')
    expect(await page.content()).not.toContain(secret)
    expect(JSON.stringify(await admin.req('GET', '/api/webhooks'))).not.toContain(secret)
    await expectAccessible(page, 'main')

    await row.getByRole('button', { name: /^Send test to / }).click()
    await expect(page.getByText('Test message delivered.')).toBeVisible()
    const test = received.filter((r) => r.path === path)
    expect(test).toHaveLength(1)
    expect(verifies(secret, test[0]!)).toBe(true)
    expect(JSON.parse(test[0]!.body).event).toBe('test')

    await row.getByRole('button', { name: /^Deliveries of / }).click()
    dialog = page.getByRole('dialog')
    const delivery = dialog.getByTestId('delivery-row').first()
    await expect(delivery).toContainText('Test message')
    await expect(delivery).toContainText('Delivered')
    await expect(delivery).toContainText('HTTP 204')
    await dialog.getByRole('button', { name: 'Close' }).click()

    await row.getByRole('button', { name: /^Edit webhook / }).click()
    dialog = page.getByRole('dialog', { name: 'Edit webhook' })
    await dialog.getByLabel('Format').selectOption({ label: 'Slack' })
    await dialog.getByRole('button', { name: 'Save webhook' }).click()
    await expect(dialog).toBeHidden()
    await expect(row).toContainText('Slack')

    // A private address is refused by the server when the flag is off; here it is on, so try a bad scheme.
    await page.getByRole('button', { name: 'New webhook' }).click()
    dialog = page.getByRole('dialog')
    await dialog.getByLabel('Address (URL)').fill('ftp://example.org/hook')
    await dialog.getByRole('button', { name: 'Create webhook' }).click()
    await expect(dialog.getByText('Only http and https URLs are allowed')).toBeVisible()
    await dialog.getByRole('button', { name: 'Cancel' }).click()

    if (name === 'phone') {
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      )
      expect(overflow, 'the page fits the phone').toBeLessThanOrEqual(0)
    }

    await row.getByRole('button', { name: /^Delete webhook / }).click()
    dialog = page.getByRole('dialog', { name: 'Delete this webhook?' })
    await dialog.getByRole('button', { name: 'Delete webhook' }).click()
    await expect(page.getByText('Webhook deleted.')).toBeVisible()
    await expect(row).toHaveCount(0)
    await page.context().close()
  })
}

test('without proposals.manage there is no Webhooks link and the page is not available', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const user = await createUser(request, admin, unique('Plain'))
  const page = await signIn(browser, user, VIEWPORTS.desktop)
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' })).toHaveCount(0)
  await page.goto('/manage/webhooks')
  await expect(page.getByText('Your account does not have access to this page.')).toBeVisible()
  await page.context().close()
})
