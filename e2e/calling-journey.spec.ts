import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { ADMIN_EMAIL, ADMIN_PASSWORD, adminApi, createUser, createWard, signInPage, unique } from './api'

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']

async function axeClean(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze()
  expect(results.violations.map((v) => `${v.id}: ${v.nodes[0]?.target}`)).toEqual([])
}

for (const size of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
]) {
  test(`${size.name}: a call with a release picked from the roster, seen before voting, interview held, dated steps`, async ({
    browser,
    request,
  }) => {
    const admin = await adminApi(request)
    const ward = await createWard(admin, unique('Brookside '))
    const member = await createUser(request, admin, unique('Ines'), unique('Vale'))
    const released = await createUser(request, admin, unique('Tomas'), unique('Ruiz'))
    const calling = await admin.req('POST', '/api/callings/', { name: unique('Librarian '), max_slots: 2 })
    await admin.req('PUT', `/api/callings/${calling.id}/1`, { user_id: released.id })

    const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
    await page.setViewportSize({ width: size.width, height: size.height })
    await page.goto('/proposals/new')
    await page.getByLabel('Ward', { exact: true }).selectOption({ label: ward.name })
    // Picking from the roster fills the names and the calling: nothing is typed.
    await page.getByRole('combobox', { name: 'Person on the roster (optional)' }).fill(member.lname)
    await page.getByRole('option', { name: new RegExp(member.lname) }).click()
    await expect(page.getByLabel('First name')).toHaveValue(member.fname)
    await expect(page.getByLabel('Last name')).toHaveValue(member.lname)
    await page.locator('#proposal-calling-id').selectOption({ label: calling.name })
    await expect(page.getByLabel('Proposed calling')).toHaveValue(calling.name)
    await page.getByRole('button', { name: 'Add a release' }).click()
    await page
      .locator('#release-0-seat')
      .selectOption({ label: `${released.fname} ${released.lname} — ${calling.name}` })
    await page.getByRole('button', { name: 'Submit proposal' }).click()
    await expect(page).toHaveURL(/\/proposals\/\d+$/)
    const id = Number(page.url().split('/').pop())

    // The whole change on the proposal page: the release, with its calling and since when.
    const releases = page.getByTestId('releases')
    await expect(releases).toContainText(`${released.fname} ${released.lname}, from ${calling.name}`)
    await expect(releases).toContainText('since')
    await axeClean(page)

    // Votes and the interview's scheduling are other specs' business.
    for (const from of ['sp_approval', 'hc_approval'])
      await admin.req('POST', `/api/calling-kanban/proposals/${id}/advance?from_stage=${from}`)
    const me = await admin.req('GET', '/api/auth/me')
    await admin.req('POST', `/api/calling-kanban/proposals/${id}/interview?interviewer_id=${me.id}`)
    await page.reload()
    // Leaving the interview asks whether it was held.
    await page.getByRole('button', { name: /Forward to/ }).click()
    const held = page.getByRole('dialog', { name: 'Was the interview held?' })
    await expect(held).toBeVisible()
    await axeClean(page)
    await held.getByRole('button', { name: 'Held — move on' }).click()
    await expect(page.locator('.stage-track [aria-current="step"]')).toHaveText('Sustain')

    await admin.req('POST', `/api/calling-kanban/proposals/${id}/sustain`)
    await page.reload()
    await page.getByRole('button', { name: /Forward to/ }).click()
    const step = page.getByRole('dialog', { name: 'Record the setting apart' })
    await expect(step.getByLabel('Date')).not.toHaveValue('')
    await step.getByRole('button', { name: 'Confirm' }).click()
    await expect(page.locator('.history .timeline')).toContainText('On ')
    const history = await admin.req('GET', `/api/calling-kanban/proposals/${id}/history`)
    expect(history.at(-1).on_date).toMatch(/^\d{4}-\d{2}-\d{2}$/)

    // Decline and Delete sit apart, after everything else.
    const danger = page.getByRole('region', { name: 'Close or delete' })
    await expect(danger.getByRole('button', { name: 'Decline' })).toBeVisible()
    await axeClean(page)

    // Nothing about it still asks anything of anyone.
    await admin.req('POST', `/api/calling-kanban/proposals/${id}/record`)
    const open = await admin.req('GET', '/api/notifications?unread=true&limit=200')
    expect(open.filter((n: { proposal_id: number | null }) => n.proposal_id === id)).toEqual([])
  })
}
