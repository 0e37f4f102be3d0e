import { expect, test, type Browser, type Page } from '@playwright/test'
import { ADMIN_EMAIL, ADMIN_PASSWORD, adminApi, createWard, unique, type Api } from './api'

/**
 * The board fits a screen: at 1280×800 the first column shows at least three
 * cards above the fold (the first-run list and "Needs me" fold into strips
 * once seen); at 320, 390, 1280 and 1920 px no text spills out of its box and
 * the page never scrolls sideways; the top navigation never cuts a word, what
 * does not fit going into "More" — in English and in Spanish.
 */

const WIDTHS = [320, 390, 1280, 1920]

async function signIn(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport })
  const page = await context.newPage()
  await page.goto('/signin')
  await page.getByLabel(/Email|Correo/).fill(ADMIN_EMAIL)
  await page.getByLabel(/Password|Contraseña/).fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: /Sign in|Iniciar sesión/ }).click()
  await expect(page.locator('.board')).toBeVisible()
  return page
}

/** Text boxes whose content is wider than the box (an ellipsis on purpose and scrollers aside), and the page's own overflow. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = []
    const doc = document.documentElement
    if (doc.scrollWidth > doc.clientWidth) found.push(`document ${doc.scrollWidth} > ${doc.clientWidth}`)
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      const hasText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '')
      if (!hasText || el.offsetParent === null || el.closest('.visually-hidden, [aria-hidden="true"]')) continue
      const style = getComputedStyle(el)
      if (style.textOverflow === 'ellipsis' || /auto|scroll/.test(style.overflowX)) continue
      if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0)
        found.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent!.trim().slice(0, 40)}"`)
      // An inline box spilling out of the box it sits in (its parent), unless that parent scrolls or cuts with an ellipsis.
      const box = el.getBoundingClientRect()
      const parent = el.parentElement
      const outer = parent?.getBoundingClientRect()
      const parentStyle = parent ? getComputedStyle(parent) : null
      const parentCuts =
        parentStyle && (parentStyle.textOverflow === 'ellipsis' || /auto|scroll|hidden/.test(parentStyle.overflowX))
      const placed = style.position === 'absolute' || style.position === 'fixed'
      if (
        outer &&
        !parentCuts &&
        !placed &&
        box.width > 0 &&
        (box.right > outer.right + 1 || box.left < outer.left - 1)
      )
        found.push(`spills from its box: "${el.textContent!.trim().slice(0, 40)}"`)
      if (box.right > doc.clientWidth + 1) found.push(`off screen: "${el.textContent!.trim().slice(0, 40)}"`)
    }
    return found
  })
}

/** The top navigation's visible links each show their whole word, and together fit the bar. */
async function navFits(page: Page) {
  const nav = page.getByTestId('mainnav')
  if (!(await nav.isVisible())) return
  const cut = await nav.evaluate((n) => {
    const bar = n.getBoundingClientRect()
    return [...n.querySelectorAll<HTMLElement>('a:not([hidden]), button')]
      .filter((a) => a.scrollWidth > a.clientWidth + 1 || a.getBoundingClientRect().right > bar.right + 1)
      .map((a) => a.textContent)
  })
  expect(cut).toEqual([])
}

async function seedTen(admin: Api) {
  const ward = await createWard(admin, unique('Fit ward '))
  for (let i = 0; i < 10; i++)
    await admin.req('POST', '/api/calling-kanban/proposals', {
      fname: unique('Fit'),
      lname: 'Person',
      proposed_calling: 'Sunday School teacher',
      ward_id: ward.id,
    })
}

for (const language of ['en', 'es'] as const) {
  const title = `${language}: three cards above the fold at 1280×800; nothing overflows at ${WIDTHS.join(', ')} px`
  test(title, async ({ browser, request }) => {
    test.setTimeout(120_000)
    const [admin, viewport] = [await adminApi(request), { width: 1280, height: 800 }]
    const me = await admin.req('GET', '/api/auth/me')
    const setLanguage = (lang: string) =>
      admin.req('PUT', `/api/users/${me.id}`, { email: me.email, fname: me.fname, lname: me.lname, language: lang })
    await seedTen(admin)
    await setLanguage(language)
    try {
      const page = await signIn(browser, viewport)
      // Seen before on this device: the first-run list and "Needs me" are strips from now on.
      await page.evaluate((id) => {
        localStorage.setItem(`stake.board.setupSeen.${id}`, '1')
        localStorage.setItem(`stake.board.needsMeSeen.${id}`, '1')
      }, me.id)
      await page.reload()
      await expect(page.locator('.board')).toBeVisible()
      const first = page.locator('section[data-stage="sp_approval"] article')
      await expect(first.nth(2)).toBeVisible()
      const above = await first.evaluateAll(
        (cards) => cards.filter((c) => c.getBoundingClientRect().bottom <= 800).length,
      )
      expect(above).toBeGreaterThanOrEqual(3)
      const tallest = await first.evaluateAll((cards) =>
        Math.max(...cards.map((c) => c.getBoundingClientRect().height)),
      )
      expect(tallest).toBeLessThanOrEqual(170)

      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 })
        await expect(page.locator('.board')).toBeVisible()
        expect(await overflowing(page), `at ${width} px`).toEqual([])
        await navFits(page)
      }
      // What the bar could not hold is under "More".
      await page.setViewportSize({ width: 1280, height: 800 })
      const more = page.getByTestId('mainnav').getByRole('button', { name: language === 'es' ? /Más/ : /More/ })
      if (await more.isVisible()) {
        await more.click()
        await expect(page.getByRole('menuitem').first()).toBeVisible()
        await page.keyboard.press('Escape')
      }
      await page.context().close()
    } finally {
      await setLanguage('en')
    }
  })
}
