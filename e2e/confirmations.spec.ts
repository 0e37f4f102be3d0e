import { expect, test, type Browser } from '@playwright/test'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, createUser, createWard, unique } from './api'

/**
 * Deactivating a user, declining and deleting a proposal each ask first and
 * say what will happen; Cancel leaves everything as it was. On a
 * phone and on a desktop.
 */

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
]

async function adminPage(browser: Browser, size: (typeof SIZES)[number]) {
  const context = await browser.newContext({
    viewport: size.viewport,
    isMobile: size.isMobile,
    hasTouch: size.hasTouch,
  })
  const page = await context.newPage()
  await page.goto('/signin')
  await page.getByLabel('Email').fill(ADMIN_EMAIL)
  await page.getByLabel('Password').fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
  return page
}

for (const size of SIZES) {
  test(`${size.name}: deactivating a user asks first and says what happens`, async ({ browser, request }) => {
    const admin = await adminApi(request)
    const user = await createUser(request, admin, unique('Dora'), 'Quist')
    const page = await adminPage(browser, size)
    await page.goto(`/manage/users?q=${encodeURIComponent(user.fname)}`)
    const row = page.getByRole('row', { name: new RegExp(user.fname) })
    await expect(row).toContainText('Active')

    await row.getByRole('button', { name: /^Actions for/ }).click()
    await page.getByRole('menuitem', { name: 'Deactivate' }).click()
    const dialog = page.getByRole('dialog', { name: `Deactivate ${user.fname} Quist?` })
    await expect(dialog).toContainText('signed out on every device')
    await expect(dialog).toContainText('can no longer sign in')
    await expect(dialog.getByRole('button', { name: 'Deactivate' })).toBeInViewport()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toBeHidden()
    expect((await admin.req('GET', `/api/users/${user.id}`)).active).toBe(true)

    await row.getByRole('button', { name: /^Actions for/ }).click()
    await page.getByRole('menuitem', { name: 'Deactivate' }).click()
    await dialog.getByRole('button', { name: 'Deactivate' }).click()
    await expect(dialog).toBeHidden()
    await expect(row).toContainText('Inactive')
    expect((await admin.req('GET', `/api/users/${user.id}`)).active).toBe(false)

    // Activating asks nothing; unticking "Active" in the edit form warns before saving.
    await row.getByRole('button', { name: /^Actions for/ }).click()
    await page.getByRole('menuitem', { name: 'Activate' }).click()
    await expect(row).not.toContainText('Inactive')
    await row.getByRole('button', { name: /^Actions for/ }).click()
    await page.getByRole('menuitem', { name: 'Edit' }).click()
    const edit = page.getByRole('dialog', { name: 'Edit user' })
    await expect(edit.getByRole('button', { name: 'Save and deactivate' })).toHaveCount(0)
    await edit.getByLabel('Active (can sign in)').uncheck()
    await expect(edit).toContainText('Saving deactivates this account')
    await edit.getByLabel('Active (can sign in)').check()
    await expect(edit).not.toContainText('Saving deactivates this account')
    await edit.getByRole('button', { name: 'Cancel' }).click()
    expect((await admin.req('GET', `/api/users/${user.id}`)).active).toBe(true)
    await page.context().close()
  })

  test(`${size.name}: declining and deleting a proposal ask first and say what happens`, async ({
    browser,
    request,
  }) => {
    const admin = await adminApi(request)
    const ward = await createWard(admin, unique('Confirm Ward '))
    const proposal = await admin.req('POST', '/api/calling-kanban/proposals', {
      fname: unique('Ines'),
      lname: 'Varga',
      spouse_name: null,
      proposed_calling: 'Stake Sunday School President',
      ward_id: ward.id,
      is_release: false,
    })
    const page = await adminPage(browser, size)
    await page.goto(`/proposals/${proposal.id}`)
    await expect(page.getByRole('heading', { name: new RegExp(proposal.fname) })).toBeVisible()

    // Decline: says what happens; Cancel keeps the proposal open.
    await page.getByRole('button', { name: 'Decline' }).click()
    const decline = page.getByRole('dialog', { name: 'Decline this proposal?' })
    await expect(decline).toContainText(`${proposal.fname} Varga will not be called as Stake Sunday School President`)
    await expect(decline).toContainText('cannot be reopened')
    await decline.getByRole('button', { name: 'Cancel' }).click()
    await expect(decline).toBeHidden()
    expect((await admin.req('GET', `/api/calling-kanban/proposals/${proposal.id}`)).stage).toBe('sp_approval')

    // Delete: says what is lost and offers declining instead; Cancel keeps it.
    await page.getByRole('button', { name: 'Delete' }).click()
    const remove = page.getByRole('dialog', { name: 'Delete this proposal?' })
    await expect(remove).toContainText('comments, votes, interview and history')
    await expect(remove).toContainText('decline it instead')
    await remove.getByRole('button', { name: 'Cancel' }).click()
    await expect(remove).toBeHidden()
    expect((await admin.req('GET', `/api/calling-kanban/proposals/${proposal.id}`)).id).toBe(proposal.id)

    // Decline for real (a reason is needed), then delete for real.
    await page.getByRole('button', { name: 'Decline' }).click()
    await decline.getByRole('button', { name: 'Decline proposal' }).click()
    await expect(decline.getByText('Give a short reason.')).toBeVisible()
    await decline.getByLabel('Reason').fill('Moving away')
    await decline.getByRole('button', { name: 'Decline proposal' }).click()
    await expect(decline).toBeHidden()
    await expect(page.locator('.stage-track [aria-current="step"]')).toHaveText('Declined')

    await page.getByRole('button', { name: 'Delete' }).click()
    await expect(remove).toContainText('cannot be undone')
    await expect(remove).not.toContainText('decline it instead')
    await remove.getByRole('button', { name: 'Delete proposal' }).click()
    await expect(page).toHaveURL(/\/board$/)
    expect((await admin.raw('GET', `/api/calling-kanban/proposals/${proposal.id}`)).status).toBe(404)
    await page.context().close()
    await admin.req('DELETE', `/api/wards/${ward.id}`)
  })
}
