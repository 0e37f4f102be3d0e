import { readFile } from 'node:fs/promises'
import { parse } from 'csv-parse/sync'
import { expect, test } from '@playwright/test'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, createUser, createWard, signInPage, unique } from './api'
import { pdfHasText } from './pdf-text'

/**
 * Sustainings and records (docs/api-reference.md §12), through the web client:
 * a stake calling goes from the proposal form to "presented in all wards"
 * (the last ward's bishop marks it on his phone, after printing the script
 * as a PDF), is recorded and seats its person on the roster, and comes out
 * of the archive's CSV. Everything it creates on the roster is released
 * again at the end.
 */

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 800 }

test('a stake calling: proposal → presented in every ward → recorded and seated; script PDF; archive CSV', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const bishop = await createUser(request, admin, unique('Bishop'), 'Alder')
  const ward = await createWard(admin, unique('Riverside '), bishop.id)
  const member = await createUser(request, admin, unique('Nora'), unique('Quill'))
  const released = await createUser(request, admin, unique('Otto'), unique('Reyes'))
  const calling = await admin.req('POST', '/api/callings/', { name: unique('Stake Music Adviser '), max_slots: 1 })
  await admin.req('PUT', `/api/callings/${calling.id}/1`, { user_id: released.id })
  // An open proposal for the same person: the form warns about it.
  const earlier = await admin.req('POST', '/api/calling-kanban/proposals', {
    fname: member.fname,
    lname: member.lname,
    proposed_calling: 'Ward choir director',
    ward_id: ward.id,
  })

  // The proposal form (desktop): scope, a release, roster links.
  const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  await page.setViewportSize(DESKTOP)
  await page.goto('/proposals/new')
  await page.getByLabel('First name').fill(member.fname)
  await page.getByLabel('Last name').fill(member.lname)
  await expect(page.getByTestId('duplicate-warning')).toContainText('already has an open proposal')
  await expect(page.getByTestId('duplicate-warning').getByRole('link', { name: 'Ward choir director' })).toBeVisible()
  await page.getByLabel('Proposed calling').fill(calling.name)
  await page.getByLabel('Ward', { exact: true }).selectOption({ label: ward.name })
  await page.getByLabel('Stake-wide (every congregation)').check()
  await page.locator('#proposal-calling-id').selectOption({ label: calling.name })
  await page.getByRole('combobox', { name: 'Person on the roster (optional)' }).fill(member.lname)
  await page.getByRole('option', { name: new RegExp(member.lname) }).click()
  await page.getByRole('button', { name: 'Add a release' }).click()
  await page.getByRole('button', { name: 'Add a release' }).click()
  await expect(page.getByTestId('release-1')).toBeVisible()
  await page.getByRole('button', { name: 'Remove release 2' }).click()
  await expect(page.getByTestId('release-1')).toHaveCount(0)
  // The release is one pick among the seats on the roster: the person and the calling.
  await page.locator('#release-0-seat').selectOption({ label: `${released.fname} ${released.lname} — ${calling.name}` })
  await expect(page.getByTestId('release-0').getByLabel('Released from')).toHaveCount(0)
  await page.getByRole('button', { name: 'Submit proposal' }).click()
  await expect(page).toHaveURL(/\/proposals\/\d+$/)
  const id = Number(page.url().split('/').pop())
  const created = await admin.req('GET', `/api/calling-kanban/proposals/${id}`)
  expect(created.scope).toBe('stake')
  expect(created.calling_id).toBe(calling.id)
  expect(created.user_id).toBe(member.id)
  expect(created.releases).toEqual([
    {
      fname: released.fname,
      lname: released.lname,
      calling: calling.name,
      calling_id: calling.id,
      user_id: released.id,
      since: expect.any(String),
    },
  ])

  // Approvals and the interview are other specs' business: a manager moves it to sustain.
  for (const from of ['sp_approval', 'hc_approval', 'interview'])
    await admin.req('POST', `/api/calling-kanban/proposals/${id}/advance?from_stage=${from}`)
  // Every other ward presents it (whatever wards other specs created).
  const wards: { id: number; name: string }[] = await admin.req('GET', '/api/wards/')
  for (const w of wards.filter((x) => x.id !== ward.id))
    await admin.req('POST', `/api/calling-kanban/proposals/${id}/presented`, { ward_id: w.id, date: '2026-11-22' })

  // The last ward's bishop, on his phone: releases first, then the call.
  const phone = await signInPage(browser, bishop)
  await phone.setViewportSize(PHONE)
  await phone.goto('/sustaining')
  await expect(phone.getByRole('heading', { name: 'Sustainings' })).toBeVisible()
  const releases = phone.getByTestId('sustaining-releases')
  const calls = phone.getByTestId('sustaining-calls')
  await expect(releases).toContainText(`${released.fname} ${released.lname}`)
  await expect(calls).toContainText(`${member.fname} ${member.lname}`)
  await expect(calls).toContainText(`Presented in ${wards.length - 1} of ${wards.length} wards`)
  const order = await phone.evaluate(() => {
    const r = document.querySelector('[data-testid="sustaining-releases"]')!
    const c = document.querySelector('[data-testid="sustaining-calls"]')!
    return r.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING
  })
  expect(order).toBeTruthy()
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)

  // Print: the script opens in a new tab; Chromium prints it to PDF on A4 and on Letter.
  const [script] = await Promise.all([
    phone.waitForEvent('popup'),
    phone.getByRole('button', { name: 'Print' }).click(),
  ])
  await script.waitForURL(/^blob:/)
  await script.waitForLoadState()
  await expect(script.getByRole('heading', { level: 1 })).toContainText(ward.name)
  for (const format of ['A4', 'Letter'] as const) {
    const pdf = await script.pdf({ format, printBackground: false })
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
    for (const text of [
      'Releases',
      `${released.fname} ${released.lname}, as ${calling.name}`,
      'Callings',
      `${member.fname} ${member.lname}, as ${calling.name}`,
      'uplifted hand',
    ])
      expect(pdfHasText(pdf, text), `${format} PDF holds "${text}"`).toBe(true)
  }
  await script.close()

  // Mark presented, with a confirmation: the last ward, so the calling moves on.
  await calls.getByRole('button', { name: 'Mark presented' }).click()
  const dialog = phone.getByRole('dialog')
  await expect(dialog).toContainText(`${member.fname} ${member.lname}`)
  await dialog.getByRole('button', { name: 'Mark presented' }).click()
  await expect(phone.getByText('Marked as presented.')).toBeVisible()
  await expect(phone.getByTestId('sustaining-calls')).toHaveCount(0)

  // The proposal page and the board card show every ward.
  await page.goto(`/proposals/${id}`)
  await expect(page.locator('.stage-track [aria-current="step"]')).toHaveText('Set apart')
  await expect(page.getByTestId(`presented-${id}`)).toHaveText(`Presented in ${wards.length} of ${wards.length} wards`)
  await page.goto('/board')
  await expect(page.getByTestId(`card-${id}`).getByTestId(`presented-${id}`)).toContainText(
    `Presented in ${wards.length} of ${wards.length} wards`,
  )

  // Recorded: the release and the call reach the roster in one step.
  await admin.req('POST', `/api/calling-kanban/proposals/${id}/set-apart`)
  await admin.req('POST', `/api/calling-kanban/proposals/${id}/record`)
  const seated = await admin.req('GET', `/api/callings/${calling.id}`)
  expect(seated.slots.map((s: { user_id: number | null }) => s.user_id)).toEqual([member.id])
  await page.goto(`/manage/callings/${calling.id}`)
  await expect(page.getByText(`${member.fname} ${member.lname}`).first()).toBeVisible()

  // The archive: filters, then the CSV for the church's records.
  const formula = await admin.req('POST', '/api/calling-kanban/proposals', {
    fname: '=SUM(1)',
    lname: member.lname,
    proposed_calling: 'Clerk',
    ward_id: ward.id,
  })
  await admin.req('POST', `/api/calling-kanban/proposals/${formula.id}/decline`, { reason: 'Test' })
  await admin.req('POST', `/api/calling-kanban/proposals/${earlier.id}/decline`, { reason: 'Replaced' })
  await page.goto('/archive')
  await page.getByLabel('Search').fill(member.lname)
  const table = page.getByTestId('archive-table')
  await expect(table.getByRole('row')).toHaveCount(4) // header + done + 2 declined
  await page.getByLabel('Outcome').selectOption('done')
  await expect(table.getByRole('row')).toHaveCount(2)
  await expect(table).toContainText(calling.name)
  await page.getByLabel('Outcome').selectOption('')
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ])
  expect(download.suggestedFilename()).toBe('proposals.csv')
  const records: Record<string, string>[] = parse(await readFile((await download.path())!), { columns: true })
  expect(records).toHaveLength(3)
  const done = records.find((r) => Number(r.id) === id)!
  expect(done).toMatchObject({ stage: 'done', scope: 'stake', is_release: 'false', proposed_calling: calling.name })
  expect(done.presented_in!.split(';').sort()).toEqual(wards.map((w) => w.name).sort())
  expect(records.find((r) => Number(r.id) === formula.id)!.fname).toBe("'=SUM(1)")

  // The archive on a phone still fits.
  await page.setViewportSize(PHONE)
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeVisible()

  // Leave the roster as it was: release the seat, remove the calling.
  await admin.req('DELETE', `/api/callings/${calling.id}/1`)
  await admin.req('DELETE', `/api/callings/${calling.id}`)
})
