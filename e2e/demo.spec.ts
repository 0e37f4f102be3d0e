import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { expect, test, type Browser } from '@playwright/test'

const root = path.join(__dirname, '..')

interface Demo {
  stake_id: number
  password: string
  accounts: { role: 'president' | 'clerk' | 'high_councilor' | 'bishop'; email: string; name: string }[]
}

/** `npm run cli -- demo --json` against the e2e server's database, as `npm run demo` runs it. */
function makeDemo(): Demo {
  const out = execFileSync('npm', ['run', '--silent', 'cli', '--', 'demo', '--stake', 'Playwright Demo', '--json'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: `sqlite:${process.env.E2E_DB}`, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  })
  return JSON.parse(out.trim().split('\n').pop()!)
}

let demo: Demo

test.beforeAll(() => {
  test.setTimeout(180_000)
  demo = makeDemo()
})

/** Signs in through the sign-in page as the printed role, with the printed password. */
async function signInAs(browser: Browser, role: Demo['accounts'][number]['role']) {
  const account = demo.accounts.find((a) => a.role === role)!
  const page = await (await browser.newContext()).newPage()
  await page.goto('/signin')
  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Password').fill(demo.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).not.toHaveURL(/signin/)
  return page
}

test('the president finds a vote and an interview waiting, and his booked interviews', async ({ browser }) => {
  const page = await signInAs(browser, 'president')
  await page.goto('/board')
  const needsMe = page.getByTestId('needs-me-view')
  await expect(needsMe.locator('li[data-kind="vote"]', { hasText: 'Agatha Fennimore' })).toBeVisible()
  await expect(needsMe.locator('li[data-kind="interview"]', { hasText: 'Eudora Gumblewort' })).toBeVisible()
  await page.goto('/interviews')
  await expect(page.getByText('Eudora Gumblewort').first()).toBeVisible()
  await page.context().close()
})

test('the high councilor finds his vote and an interview waiting', async ({ browser }) => {
  const page = await signInAs(browser, 'high_councilor')
  await page.goto('/board')
  const needsMe = page.getByTestId('needs-me-view')
  await expect(needsMe.locator('li[data-kind="vote"]', { hasText: 'Desmond Flutterby' })).toBeVisible()
  await expect(needsMe.locator('li[data-kind="interview"]', { hasText: 'Clarabel Dunwiddie' })).toBeVisible()
  await page.context().close()
})

test('the bishop finds a calling to present in his ward', async ({ browser }) => {
  const page = await signInAs(browser, 'bishop')
  await page.goto('/sustaining')
  await expect(page.getByText('Gwendolyn Jumbleberry').first()).toBeVisible()
  await page.context().close()
})

test('the clerk finds steps to record and the stake full of people', async ({ browser }) => {
  const page = await signInAs(browser, 'clerk')
  await page.goto('/board')
  await expect(page.getByTestId('needs-me-view').locator('li[data-kind="step"]').first()).toBeVisible()
  await page.goto('/manage/wards')
  await expect(page.getByText('Hollyhock Bend Ward').first()).toBeVisible()
  await page.context().close()
})
