import { expect, test, type Browser, type Page } from '@playwright/test'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, createWard, unique } from './api'
import { serveSetup } from './first-run'

/**
 * The board as big as what people look at (docs/api-reference.md §7): the closed column is a
 * count until it is opened (a button on a wide screen, its tab on a phone),
 * and a reload starts the board's request together with the profile's.
 */

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 800 }
const CLOSED_PAGE = /\/api\/calling-kanban\/board\/closed\b/

async function signIn(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport })
  const page = await context.newPage()
  await page.goto('/signin')
  await page.getByLabel('Email').fill(ADMIN_EMAIL)
  await page.getByLabel('Password').fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
  return page
}

for (const size of [DESKTOP, PHONE]) {
  const phone = size === PHONE
  test(`${phone ? 'phone' : 'desktop'}: the closed column is a count until opened, then its most recent page`, async ({
    browser,
    request,
  }) => {
    const admin = await adminApi(request)
    const ward = await createWard(admin, unique('Closed ward '))
    const fname = unique('Closed')
    const proposal = await admin.req('POST', '/api/calling-kanban/proposals', {
      fname,
      lname: 'Person',
      proposed_calling: 'Ward clerk',
      ward_id: ward.id,
    })
    await admin.req('POST', `/api/calling-kanban/proposals/${proposal.id}/decline`, { reason: 'Not now' })

    const page = await signIn(browser, size)
    const pages: string[] = []
    page.on('request', (r) => {
      if (CLOSED_PAGE.test(r.url())) pages.push(r.url())
    })
    const column = page.locator('section[data-stage="done"]')
    const name = `${fname} Person`
    if (phone) {
      // The tab's count comes with the board; the cards when the tab is chosen.
      await expect(page.getByRole('tab', { name: /Closed recently \d+/ })).toBeVisible()
      expect(pages).toEqual([])
      await page.getByRole('tab', { name: /Closed recently/ }).click()
    } else {
      await expect(column.getByRole('heading', { name: /Closed recently/ })).toBeVisible()
      expect(pages).toEqual([])
      await expect(column.getByRole('article', { name })).toHaveCount(0)
      await column.getByRole('button', { name: /^Show the .* closed in the last 30 days$/ }).click()
    }
    await expect(page.locator('section[data-stage="done"]').getByRole('article', { name })).toBeVisible()
    expect(pages.length).toBeGreaterThan(0)
    await page.context().close()
  })
}

for (const size of [DESKTOP, PHONE]) {
  const phone = size === PHONE
  test(`${phone ? 'phone' : 'desktop'}: a sign-in and a reload reach the board in one request: its answer carries the profile, the board, the queue, the wards and the stake`, async ({
    browser,
    request,
  }) => {
    await adminApi(request)
    const page = await (await browser.newContext({ viewport: size })).newPage()
    const asked: string[] = []
    page.on('request', (r) => {
      const url = new URL(r.url())
      if (url.pathname.startsWith('/api/')) asked.push(url.pathname + url.search)
    })
    const firstScreen = /^\/api\/(auth\/me|calling-kanban\/board|actions|wards|stake)\b/
    // The sign-in's answer carries them too.
    await page.goto('/signin')
    await page.getByLabel('Email').fill(ADMIN_EMAIL)
    await page.getByLabel('Password').fill(ADMIN_PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.locator('.board section[data-stage]').first()).toBeVisible()
    const signedIn = asked.splice(0)
    expect(signedIn.filter((u) => u.startsWith('/api/auth/login'))).toEqual([
      '/api/auth/login?include=me%2Cboard%2Cactions%2Cwards%2Cstake%2Csetup',
    ])
    expect(signedIn.filter((u) => firstScreen.test(u))).toEqual([])

    await page.reload()
    // A phone shows the board once it knows its first tab: the first stage holding something for the caller.
    await expect(page.locator('.board section[data-stage]').first()).toBeVisible()
    const beforeCards = [...asked]
    expect(beforeCards.filter((u) => u.startsWith('/api/auth/refresh'))).toEqual([
      '/api/auth/refresh?include=me,board,actions,wards,stake,setup',
    ])
    expect(
      beforeCards.filter((u) => firstScreen.test(u)),
      'the profile, the board, the queue, the wards and the stake come with the refresh',
    ).toEqual([])
    await page.context().close()
  })
}

for (const size of [DESKTOP, PHONE]) {
  test(`${size === PHONE ? 'phone' : 'desktop'}: the first-run list comes with the cards, its stake form included: nothing pushes the board down or hides it`, async ({
    browser,
    request,
  }) => {
    const admin = await adminApi(request)
    const ward = await createWard(admin, unique('Lista '))
    await admin.req('POST', '/api/calling-kanban/proposals', {
      fname: unique('Tarjeta'),
      lname: 'Visible',
      spouse_name: null,
      proposed_calling: 'Sunday School Teacher',
      ward_id: ward.id,
    })
    const context = await browser.newContext({ viewport: size })
    // At the first moment a card shows: was the list there, with its form, and where was the card? Then
    // each time cards that were on screen are hidden again (a Suspense fallback taking the page back).
    await context.addInitScript(() => {
      const probe = window as unknown as {
        first: { list: boolean; form: boolean; id: string; top: number } | null
        cardsShown: boolean
        cardsHidden: number
      }
      probe.first = null
      probe.cardsShown = false
      probe.cardsHidden = 0
      const check = () => {
        const card = [...document.querySelectorAll<HTMLElement>('.pcard')].find((c) => c.checkVisibility())
        if (card && !probe.first) {
          const list = document.querySelector('[data-testid="setup-checklist"]')
          probe.first = {
            list: list !== null,
            form: list?.querySelector('[data-step="stake"] input') != null,
            id: card.dataset.testid ?? '',
            top: card.getBoundingClientRect().top + window.scrollY,
          }
        }
        if (card) probe.cardsShown = true
        else if (probe.cardsShown) {
          probe.cardsShown = false
          probe.cardsHidden += 1
        }
      }
      new MutationObserver(check).observe(document, {
        childList: true,
        subtree: true,
        attributes: true,
        attributeFilter: ['style', 'hidden', 'class'],
      })
    })
    const page = await context.newPage()
    // A stake whose first steps are all still to take: the list shows open, with the stake's form.
    await serveSetup(page, { stake: false, wards: false, seats: false, users: false, proposal: false })
    // The form's texts arrive late.
    await page.route('**/assets/stake-*.js', async (route) => {
      const res = await route.fetch()
      const body = await res.text()
      if (body.includes('These settings apply to everyone in the stake.'))
        await new Promise((r) => setTimeout(r, 1_500))
      await route.fulfill({ response: res, body })
    })
    const probe = () =>
      page.evaluate(() => {
        const p = window as unknown as {
          first: { list: boolean; form: boolean; id: string; top: number }
          cardsHidden: number
        }
        const card = document.querySelector<HTMLElement>(`[data-testid="${p.first.id}"]`)
        const top = card ? card.getBoundingClientRect().top + window.scrollY : null
        return { ...p.first, moved: top === null ? null : Math.round(top - p.first.top), hidden: p.cardsHidden }
      })
    const settled = async () => {
      await expect(page.getByTestId('setup-checklist').getByLabel('Stake name')).toBeVisible()
      await expect(page.locator('.pcard').first()).toBeVisible()
      // Whatever the list would still have asked for has come.
      await page.waitForLoadState('networkidle')
      const seen = await probe()
      expect({ list: seen.list, form: seen.form, moved: seen.moved, hidden: seen.hidden }).toEqual({
        list: true,
        form: true,
        moved: 0,
        hidden: 0,
      })
    }

    await page.goto('/signin')
    await page.getByLabel('Email').fill(ADMIN_EMAIL)
    await page.getByLabel('Password').fill(ADMIN_PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await settled()
    await page.reload()
    await settled()
    await context.close()
  })
}
