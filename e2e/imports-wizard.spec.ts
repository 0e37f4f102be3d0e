import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type APIRequestContext, type BrowserContext, type Locator, type Page } from '@playwright/test'
import { Api, unique } from './api'
import { expectAccessible } from './axe'
import { newStake } from './signup'

/**
 * The import wizard with a real report (docs/api-reference.md §15): the shared
 * sample of "Callings by Organization" copied from the browser page carries
 * two vacant callings, page text around its tables, and two people the stake
 * already has under a shorter name ("Sam Woodruff" for "Woodruff, Samuel B",
 * "Ryan Bingham" for "Bingham, Ryan Kirk Jr."). The clerk sees the vacant
 * callings as vacant, answers the possible matches (the Apply button says
 * what is still to answer), opens the page text folded away, and applies.
 * Each stake is new (the sample's names are fixed); English and Spanish, at
 * phone and desktop size, under axe. Screenshots go to docs/screenshots/.
 */

const SAMPLE = path.join(__dirname, '..', 'server', 'src', 'modules', 'imports', 'fixtures')
const FILE = '07-callings-by-org-pasted-page.txt'
const LOCALES = path.join(__dirname, '..', 'web', 'src', 'i18n', 'locales')
const SCREENSHOTS = path.join(__dirname, '..', 'docs', 'screenshots')
/** The sample's data rows: 4 + 2 + 2 + 1 under its four tables. */
const ROWS = 9

type Tree = { [key: string]: string | Tree }
const texts = (lng: string, ns = 'imports') =>
  JSON.parse(fs.readFileSync(path.join(LOCALES, lng, `${ns}.json`), 'utf8')) as Tree
const text = (tree: Tree, key: string, values: Record<string, string | number> = {}) => {
  const found = key.split('.').reduce<string | Tree>((node, part) => (node as Tree)[part]!, tree)
  return (found as string).replace(/{{(\w+)}}/g, (_, k: string) => String(values[k]))
}

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, phone: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, phone: true },
] as const

/** A new stake with a ward and the two people the sample names differently; its administrator speaks `lng`. */
async function stakeFor(request: APIRequestContext, lng: 'en' | 'es') {
  const admin = await newStake(request)
  const api = new Api(request, admin.email, admin.password)
  const me = await api.req('GET', '/api/auth/me')
  await api.req('PUT', `/api/users/${me.id}`, { email: admin.email, fname: me.fname, lname: me.lname, language: lng })
  const ward = await api.req('POST', '/api/wards/', { name: unique('Valley View Ward '), start_time: 540 })
  for (const [fname, lname] of [
    ['Sam', 'Woodruff'],
    ['Ryan', 'Bingham'],
  ]) {
    await api.req('POST', '/api/users/', { email: `${unique(fname!.toLowerCase())}@example.org`, fname, lname })
  }
  return { admin, api, ward }
}

async function signIn(page: Page, account: { email: string; password: string }) {
  await page.goto('/signin')
  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/signin'))
}

/** The wizard, signed in as the stake's administrator, the ward chosen. */
async function openWizard(context: BrowserContext, admin: { email: string; password: string }, T: Tree, ward: string) {
  const page = await context.newPage()
  await signIn(page, admin)
  await page.goto('/manage/import')
  await expect(page.getByRole('heading', { name: text(T, 'title'), level: 1 })).toBeVisible()
  await page.getByLabel(text(T, 'form.ward')).selectOption({ label: ward })
  return page
}

/** The numbers the summary's lines start with add up to the report's rows. */
async function expectRowsAddUp(summary: Locator, rows: number) {
  const lines = await summary.getByRole('listitem').allInnerTexts()
  expect(lines.length).toBeGreaterThan(1)
  expect(lines.reduce((n, line) => n + Number(/\d+/.exec(line)?.[0]), 0)).toBe(rows)
}

/** In Spanish, none of the wizard's English texts is left on the page (the report's own words aside). */
async function expectNoEnglish(page: Page) {
  const en = new Map<string, string>()
  const walk = (tree: Tree, prefix = '') => {
    for (const [k, v] of Object.entries(tree)) {
      if (typeof v === 'string') en.set(`${prefix}${k}`, v)
      else walk(v, `${prefix}${k}.`)
    }
  }
  walk(texts('en'))
  const shown = await page.locator('body').innerText()
  const report = fs.readFileSync(path.join(SAMPLE, FILE), 'utf8')
  const pieces = [...en.values()]
    .flatMap((t) => t.split(/{{[^}]*}}/))
    .map((p) => p.trim())
    .filter((p) => p.length >= 12 && !report.includes(p) && !p.includes('Calling Vacant'))
  expect(pieces.filter((p) => shown.includes(p))).toEqual([])
}

async function answerMatches(page: Page, T: Tree) {
  const match = (name: string) => page.getByTestId('import-match').filter({ hasText: name })
  await match('Samuel B Woodruff')
    .getByRole('button', { name: text(T, 'matches.confirm') })
    .click()
  await expect(match('Samuel B Woodruff')).toHaveAttribute('data-answer', 'accepted')
  await expect(match('Samuel B Woodruff')).toContainText(text(T, 'matches.accepted', { candidate: 'Sam Woodruff' }))
  await match('Ryan Kirk Bingham Jr.')
    .getByRole('button', { name: text(T, 'matches.reject') })
    .click()
  await expect(match('Ryan Kirk Bingham Jr.')).toHaveAttribute('data-answer', 'rejected')
  await expect(match('Ryan Kirk Bingham Jr.').getByRole('button', { name: text(T, 'matches.reject') })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
}

for (const lng of ['en', 'es'] as const) {
  for (const size of SIZES) {
    test(`${lng}, ${size.name}: vacant callings shown as vacant, possible matches answered, page text folded away, applied`, async ({
      browser,
      request,
    }) => {
      test.setTimeout(150_000)
      const T = texts(lng)
      const { admin, api, ward } = await stakeFor(request, lng)
      const context = await browser.newContext({
        viewport: size.viewport,
        isMobile: size.phone,
        hasTouch: size.phone,
        locale: 'en-US',
      })
      const page = await openWizard(context, admin, T, ward.name)
      await page
        .getByLabel(text(T, 'form.file'))
        .setInputFiles({ name: FILE, mimeType: 'text/plain', buffer: fs.readFileSync(path.join(SAMPLE, FILE)) })
      await page.getByRole('button', { name: text(T, 'form.preview') }).click()

      const preview = page.getByTestId('import-preview')
      await expect(preview).toBeVisible()
      // The summary: what becomes of each of the report's rows, adding up to them.
      const summary = preview.getByTestId('import-summary')
      await expect(preview).toContainText(text(T, 'rows.title_other', { count: ROWS }))
      await expect(summary).toContainText(text(T, 'rows.vacant_other', { count: 2 }))
      await expect(summary).toContainText(text(T, 'rows.toConfirm_other', { count: 2 }))
      await expectRowsAddUp(summary, ROWS)

      // Vacant callings are vacant, never a person.
      const vacant = preview.getByRole('region', { name: text(T, 'vacant.title') })
      await expect(vacant).toContainText('Bishopric Second Counselor')
      await expect(vacant).toContainText('Nursery Leader')
      await expect(vacant.getByText(text(T, 'vacant.nobody'), { exact: true })).toHaveCount(2)
      await expect(preview.getByRole('region', { name: text(T, 'tables.fill') })).not.toContainText('Vacant')
      await expect(preview.getByRole('region', { name: text(T, 'tables.newPeople') })).not.toContainText('Vacant')

      // Two possible matches: Apply waits for the answers and says so.
      await expect(page.getByTestId('import-match')).toHaveCount(2)
      const apply = preview.getByRole('button', { name: text(T, 'apply') })
      await expect(apply).toBeDisabled()
      await expect(page.getByTestId('import-apply-pending')).toHaveText(text(T, 'applyPending_other', { count: 2 }))
      await expectAccessible(page, `import preview with matches to answer (${lng}, ${size.name})`)

      await answerMatches(page, T)
      await expect(page.getByTestId('import-apply-pending')).toHaveCount(0)
      await expect(apply).toBeEnabled()
      // Rejected: the report's person is new; accepted: no new person.
      const newPeople = preview.getByRole('region', { name: text(T, 'tables.newPeople') })
      await expect(newPeople).toContainText('Ryan Kirk Bingham Jr.')
      await expect(newPeople).not.toContainText('Woodruff')
      await expectRowsAddUp(summary, ROWS)

      // The page text, folded away until opened.
      const lines = page.getByTestId('import-ignored-lines')
      const folded = new RegExp(text(T, 'lines.summary_other', { count: '\\d+' }))
      await expect(lines.locator('summary')).toHaveText(folded)
      await expect(lines.getByText('Add Another Nursery Leader')).toBeHidden()
      await lines.locator('summary').click()
      await expect(lines.getByText('Add Another Nursery Leader')).toBeVisible()
      await expect(lines.getByText('Count: 4')).toBeVisible()
      await expectAccessible(page, `import preview answered, page text open (${lng}, ${size.name})`)
      if (lng === 'es') await expectNoEnglish(page)
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(overflow).toBeLessThanOrEqual(0)
      // A phone's picture is its screen at the preview's top (the whole page is many screens long).
      if (size.phone) await page.locator('#import-preview-title').evaluate((el) => el.scrollIntoView())
      await page.screenshot({
        path: path.join(SCREENSHOTS, `import${lng === 'en' ? '' : `-${lng}`}-${size.name}.png`),
        fullPage: !size.phone,
      })

      await apply.click()
      await page
        .getByRole('dialog')
        .getByRole('button', { name: text(T, 'apply') })
        .click()
      await expect(page.getByTestId('import-done')).toBeVisible()

      // Nobody named "Calling Vacant"; Sam Woodruff is the one Woodruff; Ryan Kirk Bingham Jr. is new.
      const people = async (q: string) =>
        ((await api.req('GET', `/api/users/?q=${encodeURIComponent(q)}&limit=200`)) as { fname: string }[]).map(
          (u) => u.fname,
        )
      expect(await people('Vacant')).toEqual([])
      expect(await people('Woodruff')).toEqual(['Sam'])
      expect((await people('Bingham')).sort()).toEqual(['Ryan', 'Ryan Kirk'])
      await context.close()
    })
  }
}

for (const [lng, size] of [
  ['en', SIZES[0]],
  ['es', SIZES[1]],
] as const) {
  test(`${lng}, ${size.name}: problems in plain words with their row, the rows still adding up`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(90_000)
    const T = texts(lng)
    const { admin, ward } = await stakeFor(request, lng)
    const context = await browser.newContext({ viewport: size.viewport, isMobile: size.phone, hasTouch: size.phone })
    const page = await openWizard(context, admin, T, ward.name)
    await page.getByLabel(text(T, 'form.sourcePaste')).check()
    // A date in the name column (page text read as a row), and a count the table does not have.
    const pasted = [
      'Callings by Organization',
      'Elders Quorum',
      ['Position', 'Name', 'Sustained', 'Set Apart'].join('\t'),
      ['Elders Quorum President', '14 Sep 2025', '6 Apr 2025', 'Yes'].join('\t'),
      ['Elders Quorum Secretary', `${unique('Quillfeather')}, Oswin`, '3 May 2026', 'No'].join('\t'),
      'Count: 3',
    ]
    await page.getByLabel(text(T, 'form.paste')).fill(pasted.join('\n'))
    await page.getByRole('button', { name: text(T, 'form.preview') }).click()
    const problems = page.getByTestId('import-problems')
    await expect(problems.getByRole('listitem')).toHaveText([
      `${text(T, 'rowLabel', { row: 1 })} ${text(T, 'problems.not_a_name', { value: '14 Sep 2025' })}`,
      text(T, 'problems.count_mismatch', { value: 'Count: 3' }),
    ])
    const summary = page.getByTestId('import-summary')
    await expect(summary).toContainText(text(T, 'rows.leftOut_one', { count: 1 }))
    await expectRowsAddUp(summary, 2)
    await expect(page.getByTestId('import-preview')).not.toContainText(/not_a_name|count_mismatch|problems\./)
    await expectAccessible(page, `import problems (${lng}, ${size.name})`)
    await context.close()
  })
}
