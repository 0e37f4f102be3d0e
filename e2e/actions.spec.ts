import { expect, test } from '@playwright/test'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, callingByKey, createWard, signInPage, unique, type Api } from './api'

const PRESIDENCY = ['stake_president', 'stake_first_counselor', 'stake_second_counselor']

/**
 * Seats the administrator in a vacant presidency seat (he votes only from one), unless he holds one already.
 * Returns how to give the seat back: the specs share one database, and later ones fill these seats themselves.
 */
async function seatInPresidency(admin: Api, adminId: number): Promise<() => Promise<void>> {
  for (const key of PRESIDENCY) {
    const calling = await callingByKey(admin, key)
    if (calling.slots.some((s: any) => s.user_id === adminId || s.user?.id === adminId)) return async () => {}
  }
  for (const key of PRESIDENCY) {
    const calling = await callingByKey(admin, key)
    const free = calling.slots.find((s: any) => !s.filled)
    if (free) {
      await admin.req('PUT', `/api/callings/${calling.id}/${free.slot_id}`, { user_id: adminId })
      return async () => {
        await admin.req('DELETE', `/api/callings/${calling.id}/${free.slot_id}`)
      }
    }
  }
  throw new Error('no vacant presidency seat for the administrator')
}

test('the "Needs me" badge and the title count what awaits the user, and drop when he votes', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000)
  const admin = await adminApi(request)
  const me = await admin.req('GET', '/api/auth/me')
  const giveBackSeat = await seatInPresidency(admin, me.id)
  try {
    const ward = await createWard(admin, unique('Actions ward '))
    const fname = unique('Noa')
    const name = `${fname} Ferreira`
    const proposal = await admin.req('POST', '/api/calling-kanban/proposals', {
      fname,
      lname: 'Ferreira',
      proposed_calling: 'Ward clerk',
      ward_id: ward.id,
    })
    // The server's own count (a manager may have other items from earlier specs); this proposal is one of them.
    const before = await admin.req('GET', '/api/actions')
    expect(before.items.some((i: any) => i.kind === 'vote' && i.proposal.id === proposal.id)).toBe(true)
    expect(before.count).toBeGreaterThan(0)

    const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
    const badge = page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: `Needs me: ${before.count}` })
    await expect(badge).toBeVisible()
    await expect(badge).toHaveText(`Needs me ${before.count}`)
    await expect(page).toHaveTitle(new RegExp(`^\\(${before.count}\\) `))

    // The badge leads to the board, where he votes; the count follows at once.
    await page.goto('/schedule')
    await badge.click()
    await expect(page).toHaveURL(/\/board$/)
    await page
      .getByRole('article', { name })
      .getByRole('button', { name: `Approve ${name}` })
      .click()
    await expect(page.getByText('Approval recorded.')).toBeVisible({ timeout: 15_000 })

    const after = before.count - 1
    if (after > 0) {
      await expect(page.getByRole('link', { name: `Needs me: ${after}` })).toBeVisible()
      await expect(page).toHaveTitle(new RegExp(`^\\(${after}\\) `))
    } else {
      await expect(page.getByTestId('needs-me')).toHaveCount(0)
      await expect(page).not.toHaveTitle(/^\(/)
    }
    expect((await admin.req('GET', '/api/actions')).count).toBe(after)
    await page.context().close()
  } finally {
    await giveBackSeat()
  }
})
