import { expect, test } from '@playwright/test'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, createUser, createWard, seat, signInPage, unique } from './api'

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

test('a manager overrides a speaking cell and sees the swap at once, then restores the rotation', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  await createWard(admin, unique('North '))
  await createWard(admin, unique('South '))
  const a = await createUser(request, admin, 'Speaker', 'Alpha')
  const b = await createUser(request, admin, 'Speaker', 'Beta')
  const seatA = await seat(admin, 'high_councilor', a.id)
  const seatB = await seat(admin, 'high_councilor', b.id)
  const year = new Date().getFullYear()

  const cal = await admin.req('GET', `/api/speaking/calendar/${year}`)
  const rowA = cal.rows.find((r: any) => r.slot_id === seatA)
  const rowB = cal.rows.find((r: any) => r.slot_id === seatB)
  const wardName = (id: number | null) => (id == null ? '—' : cal.wards.find((w: any) => w.id === id).name)
  // A month where B speaks somewhere A does not.
  const m = rowB.months.find((c: any) => c.ward_id != null && c.ward_id !== rowA.months[c.month - 1].ward_id)
    .month as number
  const aBefore = rowA.months[m - 1].ward_id as number | null
  const target = rowB.months[m - 1].ward_id as number

  const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  await page.getByRole('link', { name: 'Speaking' }).click()
  await expect(page.getByRole('heading', { name: `Speaking schedule ${year}` })).toBeVisible()
  const cellA = page.getByTestId(`cell-${seatA}-${m}`)
  const cellB = page.getByTestId(`cell-${seatB}-${m}`)
  await expect(cellA).toHaveText(wardName(aBefore))
  await expect(cellB).toHaveText(wardName(target))

  await cellA.getByRole('button').click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toContainText(MONTHS[m - 1]!)
  await dialog.getByLabel('Ward').selectOption({ label: wardName(target) })
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()

  // The PUT answers with the whole year, so both halves of the swap show at once.
  await expect(cellA).toHaveText(wardName(target))
  await expect(cellB).toHaveText(wardName(aBefore))
  await expect(cellA).toHaveClass(/overridden/)

  // Year navigation keeps working and comes back.
  await page.getByRole('button', { name: `Next year, ${year + 1}` }).click()
  await expect(page.getByRole('heading', { name: `Speaking schedule ${year + 1}` })).toBeVisible()
  await page.getByRole('button', { name: `Previous year, ${year}` }).click()
  await expect(cellA).toHaveText(wardName(target))

  // Restore the rotation for A's month.
  await cellA.getByRole('button').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Restore rotation' }).click()
  await expect(page.getByRole('dialog')).toBeHidden()
  await expect(cellA).toHaveText(wardName(aBefore))
  await page.context().close()

  // The high councilor sees his own row highlighted (and cannot edit).
  const hp = await signInPage(browser, a)
  await hp.getByRole('link', { name: 'Speaking' }).click()
  await expect(hp.getByTestId(`cell-${seatA}-${m}`)).toHaveClass(/mine/)
  await expect(hp.getByTestId(`cell-${seatB}-${m}`)).not.toHaveClass(/mine/)
  await expect(hp.getByTestId(`cell-${seatA}-${m}`).getByRole('button')).toHaveCount(0)
  await hp.context().close()
})
