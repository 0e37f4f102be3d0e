import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Browser, type Page } from '@playwright/test'
import {
  adminApi,
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  Api,
  callingByKey,
  createUser,
  createWard,
  signInPage,
  unique,
} from './api'
import { clientAddress, signupCode } from './signup'

/**
 * Many stakes on one deployment, from the browser (docs/api-reference.md §14): the
 * administrator's Stake settings page (the name shows in the header at once;
 * lowering the high-council seats asks first and a filled seat is explained
 * next to the field), "Create your stake" with a signup code from the CLI,
 * and both pages at phone and desktop size under axe; each stake's public
 * page (its own for a signed-in user, `/s/<slug>` for anyone).
 */

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
] as const

/** A test that runs the CLI: it needs the server's own database, and `npm run cli` compiles the server first when its sources changed. */
function usesCli() {
  test.skip(!!process.env.E2E_BASE_URL, 'the CLI needs the database of the server under test')
  test.setTimeout(240_000)
}

async function expectAccessible(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
  const bad = results.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  expect.soft(bad, `${what}: critical or serious axe violations`).toEqual([])
}

async function sized(browser: Browser, size: (typeof SIZES)[number]) {
  const context = await browser.newContext({
    viewport: size.viewport,
    isMobile: size.isMobile,
    hasTouch: size.hasTouch,
  })
  return context.newPage()
}

async function signIn(page: Page, account = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }) {
  await page.goto('/signin')
  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Password').fill(account.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
}

/** The stake as it was, put back whatever happens (the specs share one database). */
async function restoring(admin: Api, body: () => Promise<void>) {
  const before = await admin.req('GET', '/api/stake')
  try {
    await body()
  } finally {
    const { id: _id, ...settings } = before
    await admin.req('PUT', '/api/stake', settings)
  }
}

test('Stake settings: a new name shows in the header; fewer seats are confirmed first and a filled one is explained', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  await restoring(admin, async () => {
    const stake = await admin.req('GET', '/api/stake')
    const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
    await expect(page.getByTestId('stake-name')).toHaveText(stake.name)

    await page.getByRole('button', { name: /^Account menu/ }).click()
    await page.getByRole('menuitem', { name: 'Stake settings' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Stake settings' })).toBeVisible()
    await expect(page.getByLabel('Stake name')).toHaveValue(stake.name)
    await expect(page.getByLabel('Time zone')).toHaveValue(stake.timezone)

    // The name: saved, and the header follows without a reload.
    const name = unique('Cedar Hills Stake ')
    await page.getByLabel('Stake name').fill('   ')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await expect(page.getByText("Enter the stake's name.")).toBeVisible()
    await page.getByLabel('Stake name').fill(name)
    await page.getByRole('button', { name: 'Save settings' }).click()
    await expect(page.getByText('Stake settings saved.')).toBeVisible()
    await expect(page.getByTestId('stake-name')).toHaveText(name)
    expect((await admin.req('GET', '/api/stake')).name).toBe(name)

    // Fewer seats: asked first; Cancel changes nothing.
    const seats = page.getByLabel('High council seats')
    await seats.fill(String(stake.high_council_seats - 1))
    await page.getByRole('button', { name: 'Save settings' }).click()
    const confirm = page.getByRole('dialog', { name: 'Remove high council seats?' })
    await expect(confirm).toBeVisible()
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await expect(confirm).toBeHidden()
    expect((await admin.req('GET', '/api/stake')).high_council_seats).toBe(stake.high_council_seats)

    // The last seat filled: the server refuses (409 seats_filled), in plain words beside the field.
    const hc = await callingByKey(admin, 'high_councilor')
    const last = hc.slots.find((s: { slot_id: number }) => s.slot_id === stake.high_council_seats)
    const councilor = await createUser(request, admin, unique('Hyrum'))
    const wasFilled = !!last?.filled
    if (!wasFilled)
      await admin.req('PUT', `/api/callings/${hc.id}/${stake.high_council_seats}`, { user_id: councilor.id })
    try {
      await page.getByRole('button', { name: 'Save settings' }).click()
      await confirm.getByRole('button', { name: `Lower to ${stake.high_council_seats - 1} seats` }).click()
      const seatsField = page.locator('.field', { has: seats })
      await expect(seatsField.locator('.field-error')).toHaveText(/Some of the seats you would remove are filled/)
      await expect(seats).toHaveAttribute('aria-invalid', 'true')
      expect((await admin.req('GET', '/api/stake')).high_council_seats).toBe(stake.high_council_seats)
    } finally {
      if (!wasFilled) await admin.req('DELETE', `/api/callings/${hc.id}/${stake.high_council_seats}`)
    }
    await page.context().close()
  })
})

test('a long stake name is cut short in the header on a phone, and the bar still fits', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  await restoring(admin, async () => {
    const { id: _id, ...settings } = await admin.req('GET', '/api/stake')
    const long = 'Saint George Riverside Heights North Stake of the Greater Metropolitan Valley'
    await admin.req('PUT', '/api/stake', { ...settings, name: long })
    const page = await sized(browser, SIZES[0])
    await signIn(page)
    const name = page.getByTestId('stake-name')
    await expect(name).toHaveAttribute('title', long)
    const fit = await page.evaluate(() => {
      const el = document.querySelector<HTMLElement>('.stake-name')!
      const bar = document.querySelector<HTMLElement>('.topbar')!
      const account = document.querySelector<HTMLElement>('.topbar .user-button')!
      const r = el.getBoundingClientRect()
      return {
        truncated: el.scrollWidth > el.clientWidth,
        oneLine: r.height < 30,
        page: document.documentElement.scrollWidth <= document.documentElement.clientWidth,
        bar: bar.scrollWidth <= bar.clientWidth,
        accountInside: account.getBoundingClientRect().right <= document.documentElement.clientWidth,
        // On a phone the menu is the tab bar at the bottom of the screen.
        aboveTheMenu: r.bottom <= document.querySelector<HTMLElement>('.tabbar')!.getBoundingClientRect().top,
      }
    })
    expect(fit).toEqual({
      truncated: true,
      oneLine: true,
      page: true,
      bar: true,
      accountInside: true,
      aboveTheMenu: true,
    })
    await page.context().close()
  })
})

test('Create your stake: a used-up or unknown code is explained; a good one creates the stake and signs its administrator in', async ({
  browser,
  request,
}) => {
  usesCli()
  await adminApi(request)
  const code = signupCode()
  const page = await (await browser.newContext({ extraHTTPHeaders: clientAddress() })).newPage()
  await page.goto('/signin')
  await page.getByRole('link', { name: 'Create your stake' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Create your stake' })).toBeVisible()

  const stakeName = unique('Juniper Stake ')
  const email = `${unique('founder')}@example.com`
  const password = `Pw-${unique('x')}-Long`
  await page.getByLabel('Signup code').fill('not-a-real-code')
  await page.getByLabel('Stake name').fill(stakeName)
  await page.getByLabel('Your first name').fill('Lucía')
  await page.getByLabel('Your last name').fill('Ortega')
  await page.getByLabel('Your email').fill(email)
  await page.getByLabel('Choose a password').fill(password)
  await page.getByLabel('Repeat the password').fill(`${password}!`)
  await page.getByRole('button', { name: 'Create stake' }).click()
  await expect(page.getByText('The two passwords do not match.')).toBeVisible()
  await page.getByLabel('Repeat the password').fill(password)
  await page.getByRole('button', { name: 'Create stake' }).click()
  await expect(page.getByText('That signup code is not valid or has been used up.')).toBeVisible()
  await expect(page.getByLabel('Signup code')).toHaveAttribute('aria-invalid', 'true')

  // An email that already has an account (any stake).
  await page.getByLabel('Signup code').fill(code)
  await page.getByLabel('Your email').fill(ADMIN_EMAIL)
  await page.getByRole('button', { name: 'Create stake' }).click()
  await expect(page.getByText('That email address already has an account.', { exact: false })).toBeVisible()

  await page.getByLabel('Your email').fill(email)
  await page.getByRole('button', { name: 'Create stake' }).click()
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
  await expect(page).toHaveURL(/\/board$/)
  await expect(page.getByTestId('stake-name')).toHaveText(stakeName)
  await expect(page.getByTestId('setup-checklist')).toBeVisible()
  // The new administrator holds every permission in the new stake: the settings are theirs.
  await page.getByRole('button', { name: /^Account menu/ }).click()
  await page.getByRole('menuitem', { name: 'Stake settings' }).click()
  await expect(page.getByLabel('Stake name')).toHaveValue(stakeName)
  await page.context().close()

  // The code was for one stake: used again, it is refused.
  const again = await (await browser.newContext({ extraHTTPHeaders: clientAddress() })).newPage()
  await again.goto('/create-stake')
  await again.getByLabel('Signup code').fill(code)
  await again.getByLabel('Stake name').fill(unique('Second Stake '))
  await again.getByLabel('Your first name').fill('Ana')
  await again.getByLabel('Your last name').fill('Ruiz')
  await again.getByLabel('Your email').fill(`${unique('second')}@example.com`)
  await again.getByLabel('Choose a password').fill(password)
  await again.getByLabel('Repeat the password').fill(password)
  await again.getByRole('button', { name: 'Create stake' }).click()
  await expect(again.getByText('That signup code is not valid or has been used up.')).toBeVisible()
  await again.context().close()
})

for (const size of SIZES) {
  test(`${size.name}: Stake settings and Create your stake have no critical or serious axe violation`, async ({
    browser,
    request,
  }) => {
    await adminApi(request)
    const anonymous = await sized(browser, size)
    await anonymous.goto('/create-stake')
    await expect(anonymous.getByRole('heading', { level: 1, name: 'Create your stake' })).toBeVisible()
    await expectAccessible(anonymous, 'create your stake')
    // With every field's error showing.
    await anonymous.getByRole('button', { name: 'Create stake' }).click()
    await expect(anonymous.getByText('Enter your signup code.')).toBeVisible()
    await expectAccessible(anonymous, 'create your stake, with errors')
    await anonymous.context().close()

    const page = await sized(browser, size)
    await signIn(page)
    await page.goto('/manage/stake')
    await expect(page.getByRole('heading', { level: 1, name: 'Stake settings' })).toBeVisible()
    await expect(page.getByLabel('Stake name')).not.toHaveValue('')
    await expectAccessible(page, 'stake settings')
    const seats = page.getByLabel('High council seats')
    await seats.fill(String(Number(await seats.inputValue()) - 1))
    await page.getByRole('button', { name: 'Save settings' }).click()
    await expect(page.getByRole('dialog')).toBeVisible()
    await expectAccessible(page, 'stake settings, confirming fewer seats')
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click()
    await page.context().close()
  })
}

test('Public page per stake: a second stake’s administrator sees their own; /s/<slug> shows that stake to anyone; / keeps the default', async ({
  browser,
  request,
}) => {
  usesCli()
  const admin = await adminApi(request)
  const defaultWard = unique('Aspen Ward ')
  await createWard(admin, defaultWard)

  // A second stake, made with a signup code as its administrator would.
  const founder = { email: `${unique('sycamore')}@example.com`, password: `Pw-${unique('x')}-Long` }
  const signup = await request.post('/api/stakes', {
    headers: clientAddress(),
    data: { code: signupCode(), stake_name: unique('Sycamore Stake '), fname: 'Rosa', lname: 'Vidal', ...founder },
  })
  expect(signup.status(), await signup.text()).toBe(201)
  const second = new Api(request, founder.email, founder.password)
  const ward = unique('Sycamore Ward ')
  await createWard(second, ward, null, 540)
  const { slug } = await second.req('GET', '/api/stake')
  expect(slug).toMatch(/^sycamore-stake-/)

  for (const size of SIZES) {
    // Signed in: /public is the user's own stake, never the deployment's default.
    const page = await sized(browser, size)
    await signIn(page, founder)
    await page.goto('/public')
    await expect(page.getByText(ward)).toBeVisible()
    await expect(page.getByText(defaultWard)).toHaveCount(0)
    await expectAccessible(page, `${size.name}: a signed-in user's public page`)
    // The settings show the address to hand out.
    await page.goto('/manage/stake')
    await expect(page.getByLabel('Public page address')).toHaveValue(slug)
    await expect(page.getByLabel("Your stake's public page")).toHaveValue(new RegExp(`/s/${slug}$`))
    await expectAccessible(page, `${size.name}: stake settings with the public address`)
    await page.context().close()

    // Anyone at /s/<slug> sees that stake; / keeps the default stake; an unknown address says so.
    const visitor = await sized(browser, size)
    await visitor.goto(`/s/${slug}`)
    await expect(visitor.getByText(ward)).toBeVisible()
    await expect(visitor.getByText(defaultWard)).toHaveCount(0)
    await expectAccessible(visitor, `${size.name}: /s/<slug>`)
    await visitor.goto('/')
    await expect(visitor.getByText(defaultWard)).toBeVisible()
    await expect(visitor.getByText(ward)).toHaveCount(0)
    await visitor.goto('/s/no-such-stake-here')
    await expect(visitor.getByRole('heading', { level: 1, name: 'No stake at this address' })).toBeVisible()
    await expectAccessible(visitor, `${size.name}: an unknown stake address`)
    await visitor.context().close()
  }
})
