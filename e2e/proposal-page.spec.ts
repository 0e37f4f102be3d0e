import { expect, test } from '@playwright/test'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, createWard, signInPage, unique } from './api'

test('the proposal page: edit, comments, interview scheduling and completion, decline, delete', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const ward = await createWard(admin, unique('Lakeside '))
  const release = await admin.req('POST', '/api/calling-kanban/proposals', {
    fname: unique('Iris'),
    lname: 'Calder',
    spouse_name: null,
    proposed_calling: 'Activities Committee',
    ward_id: ward.id,
    is_release: true,
  })
  const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  await page.goto(`/proposals/${release.id}`)
  await expect(page.getByRole('heading', { name: new RegExp(release.fname) })).toBeVisible()
  await expect(page.locator('.stage-track [aria-current="step"]')).toHaveText('Interview')

  // Edit a field.
  await page.getByRole('button', { name: 'Edit' }).click()
  await page.getByLabel('Proposed calling').fill('Activities Committee Chair')
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Activities Committee Chair')).toBeVisible()

  // Comments: add, edit own, delete.
  await page.getByLabel('Add a comment').fill('First thought')
  await page.getByRole('button', { name: 'Post comment' }).click()
  await expect(page.getByText('First thought')).toBeVisible()
  await page.locator('.comment').getByRole('button', { name: 'Edit' }).click()
  await page.getByLabel('Edit comment').fill('Second thought')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Second thought')).toBeVisible()
  await expect(page.locator('.comment')).toContainText('edited')
  await page.locator('.comment').getByRole('button', { name: 'Delete' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('No comments yet.')).toBeVisible()

  // Interview: pick the interviewer, schedule, complete.
  await page.getByRole('button', { name: 'Schedule interview' }).click()
  await expect(page.getByText('Choose an interviewer.')).toBeVisible()
  await page.getByRole('combobox', { name: 'Interviewer' }).fill('Stake Admin')
  await page.getByRole('option', { name: /Stake Administrator/ }).click()
  await page.getByLabel('Scheduled for').fill('2030-05-04T10:30')
  await page.getByRole('button', { name: 'Schedule interview' }).click()
  await expect(page.getByText('Interview scheduled.')).toBeVisible()
  await expect(page.locator('#interview-h + dl')).toContainText('You')
  await page.getByRole('button', { name: 'Mark interview complete' }).click()
  await expect(page.locator('.stage-track [aria-current="step"]')).toHaveText('Sustain')

  // Decline with a reason.
  await page.getByRole('button', { name: 'Decline' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Decline proposal' }).click()
  await expect(page.getByText('Give a short reason.')).toBeVisible()
  await page.getByRole('dialog').getByLabel('Reason').fill('Moved out of the ward')
  await page.getByRole('dialog').getByRole('button', { name: 'Decline proposal' }).click()
  await expect(page.locator('.stage-track [aria-current="step"]')).toHaveText('Declined')
  await expect(page.locator('.history')).toContainText('Moved out of the ward')

  // Delete.
  await page.getByRole('button', { name: 'Delete' }).first().click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
  await expect(page).toHaveURL(/\/board$/)
  await page.goto(`/proposals/${release.id}`)
  await expect(page.getByRole('heading', { name: 'Proposal not found' })).toBeVisible()
  await page.context().close()
})
