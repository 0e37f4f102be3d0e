import { expect, test, type APIRequestContext } from '@playwright/test'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, login, signInPage, unique } from './api'
import { expectAccessible } from './axe'

/**
 * Imports end to end (docs/api-reference.md §15): a stake of 8 wards is brought in from its LCR
 * reports without typing a name. Seven wards' "Organizations and Callings"
 * reports go in through the API (CSV), the eighth through the wizard as a
 * PDF printed like LCR's; then the new-proposal pickers and the callings page
 * show the people and their seats. Invented names throughout.
 */

const HEADER = ['Organization', 'Calling', 'Name', 'Sustained', 'Set Apart']

async function lcrPdf(title: string, rows: string[][]): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  const size = 9
  const widths = HEADER.map((h, i) =>
    Math.max(bold.widthOfTextAtSize(h, size), ...rows.map((r) => font.widthOfTextAtSize(r[i] ?? '', size))),
  )
  const xs: number[] = []
  let x = 36
  for (const w of widths) {
    xs.push(x)
    x += w + 14
  }
  const page = doc.addPage([Math.max(612, x + 36), 792])
  let y = 750
  page.drawText(title, { x: 36, y, size: 14, font: bold })
  y -= 30
  HEADER.forEach((h, i) => page.drawText(h, { x: xs[i]!, y, size, font: bold }))
  y -= 16
  for (const row of rows) {
    row.forEach((cell, i) => cell && page.drawText(cell, { x: xs[i]!, y, size, font }))
    y -= 14
  }
  page.drawText('Page 1 of 1', { x: 280, y: 24, size: 8, font })
  return Buffer.from(await doc.save())
}

const csv = (rows: string[][]) =>
  [HEADER, ...rows].map((r) => r.map((c) => `"${c.replace(/"/g, '""')}"`).join(',')).join('\r\n')

async function postReport(request: APIRequestContext, token: string, body: string, wardId: number) {
  const res = await request.post(`/api/imports?ward_id=${wardId}`, {
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/csv' },
    data: body,
  })
  expect(res.status(), await res.text()).toBe(201)
  const preview = await res.json()
  const applied = await request.post(`/api/imports/${preview.id}/apply`, {
    headers: { Authorization: `Bearer ${token}` },
  })
  expect(applied.status(), await applied.text()).toBe(200)
}

test('a stake of 8 wards comes in from its LCR reports: PDF in → preview → apply → pickers and callings show them', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000)
  const admin = await adminApi(request)
  const tag = unique('')
  const wards: { id: number; name: string }[] = []
  for (let i = 1; i <= 8; i++) {
    wards.push(await admin.req('POST', '/api/wards/', { name: `Juniper ${tag} Ward ${i}`, start_time: 540 + i * 30 }))
  }
  const callingName = `Ward Choir Director ${tag}`
  const token = await login(request, ADMIN_EMAIL, ADMIN_PASSWORD)
  for (const [i, ward] of wards.slice(0, 7).entries()) {
    await postReport(
      request,
      token,
      csv([
        ['Bishopric', 'Bishop', `Quorra${tag}${i}, Bastian`, '29 Apr 2021', 'Yes'],
        ['Music', callingName, `Velloway${tag}${i}, Ines`, '3 Sep 2024', 'Yes'],
      ]),
      ward.id,
    )
  }

  // The eighth ward through the wizard, as a PDF.
  const last = `Thistlewood${tag}`
  const pdf = await lcrPdf('Organizations and Callings', [
    ['Bishopric', 'Bishop', `${last}, Oren`, '12 Jan 2025', 'Yes'],
    ['Music', callingName, `${last}, Maris`, '3 Sep 2024', 'No'],
    ['Primary', `Primary Pianist ${tag}`, `${last}, Juno`, '', ''],
  ])
  const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  await expect(page.getByTestId('setup-checklist')).toBeVisible()
  await page.getByTestId('setup-checklist').getByRole('link', { name: 'Import from LCR' }).click()
  await expect(page.getByRole('heading', { name: 'Import from LCR', level: 1 })).toBeVisible()
  await page.getByLabel('Whose callings').selectOption({ label: wards[7]!.name })
  await page.getByLabel('Report file').setInputFiles({ name: 'callings.pdf', mimeType: 'application/pdf', buffer: pdf })
  await page.getByRole('button', { name: 'See what would change' }).click()
  const preview = page.getByTestId('import-preview')
  await expect(preview).toBeVisible()
  await expect(preview.getByRole('region', { name: 'New people' })).toContainText(`Oren ${last}`)
  await expect(preview.getByRole('region', { name: 'Seats to fill' })).toContainText(`Juno ${last}`)
  // Set Apart is kept with the seat: not among the columns left out.
  await expect(preview).not.toContainText('Set Apart')
  await expectAccessible(page, 'import preview (desktop)')

  await preview.getByRole('button', { name: 'Apply the import' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: 'Apply the import' }).click()
  await expect(page.getByTestId('import-done')).toBeVisible()
  await expect(page.getByTestId('import-done')).toContainText('3 seats to fill')

  // Every ward has its bishop now, nobody typed.
  const fresh = await adminApi(request)
  const listed = await fresh.req('GET', '/api/wards/')
  for (const w of wards) expect(listed.find((x: { id: number }) => x.id === w.id).bishop_id).not.toBeNull()

  // The new-proposal pickers know the imported people and callings.
  await page.goto('/proposals/new')
  await page.getByRole('combobox', { name: 'Person on the roster (optional)' }).fill('Maris')
  await expect(page.getByRole('option', { name: new RegExp(`Maris ${last}`) })).toBeVisible()
  await expect(page.getByLabel('Calling on the roster').locator('option', { hasText: callingName })).toHaveCount(1)

  // The callings page shows the seats, one per ward.
  await page.goto(`/manage/callings?q=${encodeURIComponent(callingName)}`)
  await page.getByRole('link', { name: callingName }).first().click()
  await expect(page.getByRole('heading', { name: callingName })).toBeVisible()
  await expect(page.getByRole('cell', { name: `Maris ${last}` })).toBeVisible()
  await expect(page.getByRole('cell', { name: `Ines Velloway${tag}0` })).toBeVisible()
  await expect(page.getByRole('row', { name: new RegExp(`Maris ${last}`) })).toContainText(wards[7]!.name)
  await page.context().close()
})

test('the import wizard fits a phone and passes axe', async ({ browser, request }) => {
  await adminApi(request)
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  const page = await context.newPage()
  await page.goto('/signin')
  await page.getByLabel('Email').fill(ADMIN_EMAIL)
  await page.getByLabel('Password').fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
  await page.goto('/manage/import')
  await page.getByLabel('Paste the table').check()
  const last = unique('Harrowgate')
  await page.getByLabel('Pasted table').fill(
    [
      ['Name', 'Gender', 'Age', 'Birth Date', 'Phone Number', 'E-mail'],
      [`${last}, Wilhelmina Josephine`, 'F', '61', '14 Feb 1965', '555-0142', `${last.toLowerCase()}@example.org`],
      [`${last}, Bartholomew`, 'M', '63', '2 Oct 1962', '', ''],
    ]
      .map((r) => r.join('\t'))
      .join('\n'),
  )
  await page.getByRole('button', { name: 'See what would change' }).click()
  await expect(page.getByTestId('import-preview')).toContainText(`Bartholomew ${last}`)
  await expect(page.getByTestId('ignored-columns')).toContainText('Birth Date')
  await expect(page.getByTestId('import-preview')).not.toContainText('1965')
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow).toBeLessThanOrEqual(0)
  await expectAccessible(page, 'import preview (phone)')
  await context.close()
})

test('people imported from a member list are on the roster, with Invite where they have an email', async ({
  browser,
  request,
}) => {
  await adminApi(request)
  const token = await login(request, ADMIN_EMAIL, ADMIN_PASSWORD)
  const last = unique('Rostergate')
  const list = [
    ['Name', 'Phone Number', 'E-mail'],
    [`${last}, Odile`, '555-0150', `${last.toLowerCase()}@example.org`],
    [`${last}, Piers`, '', ''],
  ]
  const res = await request.post('/api/imports', {
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/csv' },
    data: list.map((r) => r.map((c) => `"${c}"`).join(',')).join('\n'),
  })
  expect(res.status(), await res.text()).toBe(201)
  const applied = await request.post(`/api/imports/${(await res.json()).id}/apply`, {
    headers: { Authorization: `Bearer ${token}` },
  })
  expect(applied.status(), await applied.text()).toBe(200)

  const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  await page.goto(`/manage/users?q=${encodeURIComponent(last)}`)
  const odile = page.getByRole('row', { name: new RegExp(`Odile ${last}`) })
  const piers = page.getByRole('row', { name: new RegExp(`Piers ${last}`) })
  await expect(odile).toContainText('On the roster')
  await expect(piers).toContainText('On the roster')
  await expect(page.getByText('must change password')).toHaveCount(0)
  await expect(odile.getByRole('button', { name: `Invite Odile ${last}` })).toBeVisible()
  await expect(piers.getByRole('button', { name: `Invite Piers ${last}` })).toHaveCount(0)
  await expectAccessible(page, 'users page with roster entries')
  await odile.getByRole('button', { name: `Invite Odile ${last}` }).click()
  // Without mail the link to pass on; once invited, the row says so.
  await page.getByRole('dialog', { name: 'Invitation link' }).getByRole('button', { name: 'Done' }).click()
  await expect(odile).toContainText('Invitation not accepted')
  await page.context().close()
})
