import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { unique } from './api'
import { newStake } from './signup'

for (const size of [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]) {
  test(`${size.name}: the checklist's first step asks for the stake's name and time zone, the browser's zone proposed; a step taken elsewhere is ticked back on the board`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(120_000)
    const admin = await newStake(request)
    const context = await browser.newContext({ viewport: size.viewport, timezoneId: 'Pacific/Auckland' })
    const page = await context.newPage()
    await page.goto('/signin')
    await page.getByLabel('Email').fill(admin.email)
    await page.getByLabel('Password').fill(admin.password)
    await page.getByRole('button', { name: 'Sign in' }).click()

    const list = page.getByTestId('setup-checklist')
    const step = list.locator('[data-step="stake"]')
    await expect(step).toHaveAttribute('data-done', 'false')
    await expect(step.getByRole('link', { name: 'The stake itself' })).toHaveAttribute('href', '/manage/stake')
    await expect(step.getByLabel('Time zone')).toHaveValue('Pacific/Auckland')
    const violations = (await new AxeBuilder({ page }).include('[data-testid="setup-checklist"]').analyze()).violations
    expect(violations.map((v) => v.id)).toEqual([])

    const name = unique('Kauri Stake ')
    await step.getByLabel('Stake name').fill(name)
    await step.getByRole('button', { name: 'Save settings' }).click()
    await expect(step).toHaveAttribute('data-done', 'true')
    await expect(step.getByLabel('Stake name')).toHaveCount(0)
    await expect(page.getByTestId('stake-name')).toHaveText(name)

    // A step taken elsewhere shows as done back on the board, moments later.
    const users = list.locator('[data-step="users"]')
    await expect(users).toHaveAttribute('data-done', 'false')
    await users.getByRole('link', { name: 'People who use the service' }).click()
    await page.getByRole('button', { name: 'New user' }).click()
    const form = page.getByRole('dialog')
    await form.getByLabel('First name').fill('Nora')
    await form.getByLabel('Last name').fill('Invited')
    await form.getByLabel('Email').fill(`${unique('nora')}@example.com`)
    await form.getByLabel('Send an invitation (they choose their own password)').check()
    await form.getByRole('button', { name: 'Create user' }).click()
    await form.getByRole('button', { name: 'Done' }).click()
    await page.getByRole('link', { name: 'Board', exact: true }).first().click()
    await expect(users).toHaveAttribute('data-done', 'true')

    const token = (
      await (
        await request.post('/api/auth/login', { form: { username: admin.email, password: admin.password } })
      ).json()
    ).access_token
    const stake = await (await request.get('/api/stake', { headers: { Authorization: `Bearer ${token}` } })).json()
    expect([stake.name, stake.timezone, stake.settings_saved]).toEqual([name, 'Pacific/Auckland', true])
    await context.close()
  })
}
