import { expect, test } from '@playwright/test'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, createWard, unique } from './api'

/**
 * The speaking grid marks the current month and the vacant seats (whose
 * wards have no speaker), and on a phone it opens at the current month and
 * scrolls through all twelve.
 */

const PHONE = { width: 390, height: 844 }

async function vacantSeat(admin: Awaited<ReturnType<typeof adminApi>>, year: number) {
  const cal = await admin.req('GET', `/api/speaking/calendar/${year}`)
  const row = cal.rows.find((r: any) => r.high_councilor_id == null)
  expect(row, 'the e2e stake has a vacant high council seat').toBeTruthy()
  return row as { slot_id: number; months: { month: number; ward_id: number | null }[] }
}

test('desktop: the current month and the vacant seats are marked; another year has no current month', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  await createWard(admin, unique('Grid North '))
  await createWard(admin, unique('Grid South '))
  const year = new Date().getFullYear()
  const month = new Date().getMonth() + 1
  const vacant = await vacantSeat(admin, year)

  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto('/signin')
  await page.getByLabel('Email').fill(ADMIN_EMAIL)
  await page.getByLabel('Password').fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('link', { name: 'Speaking' }).click()
  await expect(page.getByRole('heading', { name: `Speaking schedule ${year}` })).toBeVisible()

  const current = page.locator('.speaking-grid thead th[aria-current="date"]')
  await expect(current).toHaveCount(1)
  await expect(current).toHaveAttribute('data-month', String(month))
  await expect(current).toContainText('this month')
  await expect(page.getByTestId(`cell-${vacant.slot_id}-${month}`)).toHaveClass(/current-month/)
  const other = month === 1 ? 2 : 1
  await expect(page.getByTestId(`cell-${vacant.slot_id}-${other}`)).not.toHaveClass(/current-month/)
  await expect(page.locator('.legend')).toContainText('this month')

  // The vacant seat: named as such, its row marked, and its wards shown without a speaker.
  const row = page.locator('.speaking-grid tbody tr', { has: page.getByTestId(`cell-${vacant.slot_id}-1`) })
  await expect(row).toHaveClass(/vacant/)
  await expect(row.locator('th')).toContainText(`Seat ${vacant.slot_id} (vacant)`)
  const withWard = vacant.months.find((m) => m.ward_id != null)
  if (withWard) {
    const cell = page.getByTestId(`cell-${vacant.slot_id}-${withWard.month}`)
    await expect(cell).toHaveClass(/vacant/)
    await expect(cell.locator('[aria-label]')).toHaveAttribute('aria-label', /no speaker/)
  }
  await expect(page.locator('.legend')).toContainText(/vacant seats?:/)
  // The months the rotation gives to vacant seats are said in words.
  const cal = await admin.req('GET', `/api/speaking/calendar/${year}`)
  const months = cal.rows
    .filter((r: any) => r.high_councilor_id == null)
    .reduce((n: number, r: any) => n + r.months.filter((m: any) => m.ward_id != null).length, 0)
  expect(months, 'the vacant seat is given wards').toBeGreaterThan(0)
  const note = page.getByTestId('vacant-months')
  await expect(note).toHaveText(
    months === 1
      ? `1 month of ${year} goes to a vacant seat: that ward hears no high councilor that month.`
      : `${months} months of ${year} go to vacant seats: those wards hear no high councilor in those months.`,
  )

  await page.getByRole('button', { name: `Next year, ${year + 1}` }).click()
  await expect(page.getByRole('heading', { name: `Speaking schedule ${year + 1}` })).toBeVisible()
  await expect(page.locator('.speaking-grid thead th[aria-current="date"]')).toHaveCount(0)
  await context.close()
})

test('phone: the grid opens at the current month and scrolls through all twelve', async ({ browser, request }) => {
  await adminApi(request) // the administrator's first password change is done
  const year = new Date().getFullYear()
  const month = new Date().getMonth() + 1
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true })
  const page = await context.newPage()
  await page.goto('/signin')
  await page.getByLabel('Email').fill(ADMIN_EMAIL)
  await page.getByLabel('Password').fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
  await page.goto('/schedule')
  await expect(page.getByRole('heading', { name: `Speaking schedule ${year}` })).toBeVisible()
  await expect(page.getByText('Swipe sideways for the other months.')).toBeVisible()

  const grid = page.locator('.grid-scroll')
  const header = (m: number) => page.locator(`.speaking-grid thead th[data-month="${m}"]`)
  // Opens at the current month: its header is on screen, beside the seat column.
  await expect(header(month)).toBeInViewport({ ratio: 1 })
  if (month > 3) expect(await grid.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0)

  // Every month can be reached by scrolling, December and January included.
  for (const m of [12, 1, 6]) {
    await header(m).scrollIntoViewIfNeeded()
    await expect(header(m)).toBeInViewport()
  }
  await grid.evaluate((el) => el.scrollTo({ left: el.scrollWidth }))
  await expect(header(12)).toBeInViewport({ ratio: 0.9 })
  // The page itself does not scroll sideways: only the grid does.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
  await context.close()
})
