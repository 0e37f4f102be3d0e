import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import {
  adminApi,
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  callingByKey,
  createUser,
  createWard,
  login,
  seat,
  signInPage,
  unique,
  type Account,
  type Api,
} from './api'
import { serveSetup, type SetupState } from './first-run'

/**
 * The board: a "Needs me" view first, stages as tabs with counts
 * on a phone, "2 of 3 approvals" and who is still to vote, auto-advance
 * announced, confirmation before a forward move past missing votes, the
 * keyboard and the card menu's moves keeping focus on the moved card, the
 * administrator's setup checklist, and axe: 0 critical, 0 serious — at
 * phone (390×844) and desktop size. Seats taken here are given back.
 */

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 800 }
const ADMIN = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }

const column = (page: Page, stage: string) => page.locator(`section[data-stage="${stage}"]`)

/** Seats users as high councilors; returns a function giving the seats back. */
async function seatCouncilors(admin: Api, users: Account[]) {
  const hc = await callingByKey(admin, 'high_councilor')
  const slots: number[] = []
  for (const u of users) slots.push(await seat(admin, 'high_councilor', u.id))
  return async () => {
    for (const slot of slots) await admin.raw('DELETE', `/api/callings/${hc.id}/${slot}`)
  }
}

async function proposalAt(admin: Api, wardId: number, stage: 'sp_approval' | 'hc_approval', fname: string) {
  const p = await admin.req('POST', '/api/calling-kanban/proposals', {
    fname,
    lname: 'Tablero',
    spouse_name: null,
    proposed_calling: 'Sunday School Teacher',
    ward_id: wardId,
  })
  if (stage === 'hc_approval')
    await admin.req('POST', `/api/calling-kanban/proposals/${p.id}/advance?from_stage=sp_approval`)
  return { id: p.id as number, name: `${fname} Tablero` }
}

async function releaseAtInterview(admin: Api, wardId: number, fname: string) {
  const p = await admin.req('POST', '/api/calling-kanban/proposals', {
    fname,
    lname: 'Relevo',
    spouse_name: null,
    proposed_calling: 'Ward Librarian',
    ward_id: wardId,
    is_release: true,
  })
  return { id: p.id as number, name: `${fname} Relevo` }
}

async function expectNoSeriousAxe(page: Page) {
  await expect(page.locator('.loading')).toHaveCount(0)
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
  const bad = results.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  expect(bad).toEqual([])
}

for (const size of [DESKTOP, PHONE]) {
  const phone = size === PHONE
  const label = phone ? 'phone' : 'desktop'

  test.describe(`board at ${label} size`, () => {
    test.use({ viewport: size })

    test(`${label}: "Needs me" comes first, a card says "0 of 3 approvals" and who is still to vote; a vote updates both`, async ({
      browser,
      request,
    }) => {
      test.setTimeout(120_000)
      const admin = await adminApi(request)
      const hcA = await createUser(request, admin, 'Ines', unique('Voto'))
      const hcB = await createUser(request, admin, 'Ruben', unique('Voto'))
      const giveBack = await seatCouncilors(admin, [hcA, hcB])
      try {
        const ward = await createWard(admin, unique('Distrito Norte '))
        const p = await proposalAt(admin, ward.id, 'hc_approval', unique('Alma'))
        const page = await signInPage(browser, hcA)
        await page.setViewportSize(size)

        // "Needs me" is the first thing on the board, before the stages.
        const needs = page.getByTestId('needs-me-view')
        await expect(needs.getByRole('heading', { name: /Needs me/ })).toBeVisible()
        const myVote = needs.locator('[data-group="votes"] li', { hasText: p.name })
        await expect(myVote).toBeVisible()
        await expect(page.locator('.board')).toBeVisible()
        const order = await page.evaluate(() => {
          const n = document.querySelector('[data-testid="needs-me-view"]')!
          const b = document.querySelector('.board')!
          return n.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING
        })
        expect(order).toBeTruthy()

        // "Show on the board" brings the card into view (on a phone: its stage's tab) and focuses it.
        await myVote.getByRole('button', { name: `Show on the board ${p.name}` }).click()
        const card = column(page, 'hc_approval').getByTestId(`card-${p.id}`)
        await expect(card).toBeFocused()
        await expect(card.getByTestId('tally')).toHaveText('0 of 3 approvals')
        const pending = card.getByTestId('pending-voters')
        await expect(pending).toContainText(`${hcA.fname} ${hcA.lname}`)
        await expect(pending).toContainText(`${hcB.fname} ${hcB.lname}`)

        // One tap, undoable: sent once the countdown ends.
        await card.getByRole('button', { name: `Approve ${p.name}` }).click()
        await expect(card.getByTestId('quick-waiting')).toContainText(/Approving in [1-5]…/)
        await expect(page.getByText('Approval recorded.')).toBeVisible({ timeout: 15_000 })
        await expect(card.getByTestId('tally')).toHaveText('1 of 3 approvals')
        await expect(pending).not.toContainText(`${hcA.fname} ${hcA.lname}`)
        await expect(pending).toContainText(`${hcB.fname} ${hcB.lname}`)
        await expect(card.getByText('You approved')).toBeVisible()
        // Voted: no longer needs him.
        await expect(myVote).toHaveCount(0)
        await page.context().close()
      } finally {
        await giveBack()
      }
    })

    test(`${label}: the last approval moves the card on and says so`, async ({ browser, request }) => {
      test.setTimeout(120_000)
      const admin = await adminApi(request)
      const voters = [
        await createUser(request, admin, 'Ana', unique('Auto')),
        await createUser(request, admin, 'Beto', unique('Auto')),
        await createUser(request, admin, 'Cira', unique('Auto')),
      ]
      const giveBack = await seatCouncilors(admin, voters)
      try {
        const ward = await createWard(admin, unique('Distrito Sur '))
        const p = await proposalAt(admin, ward.id, 'hc_approval', unique('Bruno'))
        for (const v of voters.slice(0, 2)) {
          const token = await login(request, v.email, v.password)
          const res = await request.post(`/api/calling-kanban/proposals/${p.id}/approvals?approved=true`, {
            headers: { Authorization: `Bearer ${token}` },
          })
          expect(res.status()).toBe(201)
        }
        const page = await signInPage(browser, voters[2]!)
        await page.setViewportSize(size)
        if (phone) await page.getByRole('tab', { name: /High council approval/ }).click()
        const card = column(page, 'hc_approval').getByTestId(`card-${p.id}`)
        await expect(card.getByTestId('tally')).toHaveText('2 of 3 approvals')
        await card.getByRole('button', { name: `Approve ${p.name}` }).click()
        const notice = page.getByTestId('board-notice')
        await expect(notice).toHaveText(`${p.name}: moved to Interview after 3 approvals.`, { timeout: 15_000 })
        await expect(notice).toHaveAttribute('aria-live', 'polite')
        await page.context().close()
      } finally {
        await giveBack()
      }
    })

    test(`${label}: a forward move past missing votes asks first, naming who has not voted; the card menu keeps focus on the card`, async ({
      browser,
      request,
    }) => {
      test.setTimeout(120_000)
      const admin = await adminApi(request)
      const hc = await createUser(request, admin, 'Dora', unique('Falta'))
      const giveBack = await seatCouncilors(admin, [hc])
      try {
        const ward = await createWard(admin, unique('Distrito Este '))
        const p = await proposalAt(admin, ward.id, 'hc_approval', unique('Carla'))
        const page = await signInPage(browser, ADMIN)
        await page.setViewportSize(size)
        if (phone) {
          // On a phone the stages are tabs with counts, one stage shown at a time, no sideways scrolling.
          const tabs = page.getByRole('tablist', { name: 'Stages' })
          await expect(tabs.getByRole('tab')).toHaveCount(7)
          const hcTab = tabs.getByRole('tab', { name: /High council approval/ })
          const count = Number(await hcTab.locator('.count').textContent())
          expect(count).toBeGreaterThan(0)
          await expect(page.locator('.board section.column')).toHaveCount(1)
          await hcTab.click()
          await expect(hcTab).toHaveAttribute('aria-selected', 'true')
          await expect(page.getByRole('tabpanel')).toHaveAttribute('data-stage', 'hc_approval')
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
          ).toBe(true)
        }
        const card = column(page, 'hc_approval').getByTestId(`card-${p.id}`)
        await expect(card).toBeVisible()
        const menu = card.getByRole('button', { name: `Actions for ${p.name}` })
        await menu.click()
        // Only the valid moves: one stage forward, one back (beside Remind).
        const items = page.getByRole('menuitem').filter({ hasText: /^(Forward|Back) to/ })
        await expect(items).toHaveText(['Forward to Interview', 'Back to Presidency approval'])
        await items.filter({ hasText: 'Forward to Interview' }).click()

        const dialog = page.getByRole('dialog')
        await expect(dialog).toBeVisible()
        await expect(dialog).toContainText('It has 0 of the 3 approvals High council approval needs.')
        await expect(dialog.getByTestId('confirm-missing')).toContainText(`${hc.fname} ${hc.lname}`)
        await dialog.getByRole('button', { name: 'Keep it here' }).click()
        await expect(dialog).toHaveCount(0)
        await expect(card).toBeVisible()
        await expect(menu).toBeFocused()

        await menu.click()
        await page.getByRole('menuitem', { name: 'Forward to Interview' }).click()
        await page.getByRole('dialog').getByRole('button', { name: 'Move to Interview' }).click()
        const moved = column(page, 'interview').getByTestId(`card-${p.id}`)
        await expect(moved).toBeVisible()
        await expect(card).toHaveCount(0)
        await expect(moved.getByRole('button', { name: `Actions for ${p.name}` })).toBeFocused()
        if (phone) await expect(page.getByRole('tab', { name: /^Interview/ })).toHaveAttribute('aria-selected', 'true')
        await expect(page.getByTestId('board-notice')).toHaveText(`${p.name} moved to Interview.`)
        expect((await admin.req('GET', `/api/calling-kanban/proposals/${p.id}`)).stage).toBe('interview')

        // A move back asks nothing.
        await moved.getByRole('button', { name: `Actions for ${p.name}` }).click()
        await page.getByRole('menuitem', { name: 'Back to High council approval' }).click()
        await expect(page.getByRole('dialog')).toHaveCount(0)
        await expect(column(page, 'hc_approval').getByTestId(`card-${p.id}`)).toBeVisible()
        await page.context().close()
      } finally {
        await giveBack()
      }
    })

    test(`${label}: the interview card shows the interviewer and the date; axe finds nothing critical or serious`, async ({
      browser,
      request,
    }) => {
      const admin = await adminApi(request)
      const ward = await createWard(admin, unique('Distrito Oeste '))
      const interviewer = await createUser(request, admin, 'Elena', unique('Entrevista'))
      const r = await releaseAtInterview(admin, ward.id, unique('Dario'))
      const unassigned = await releaseAtInterview(admin, ward.id, unique('Bruno'))
      // S10: the interviewer must see the proposal.
      await admin.req('PUT', `/api/users/${interviewer.id}/permissions`, { permissions: ['proposals.view'] })
      await admin.req(
        'POST',
        `/api/calling-kanban/proposals/${r.id}/interview?interviewer_id=${interviewer.id}&scheduled_for=2030-03-05T15:30:00.000Z`,
      )
      const page = await signInPage(browser, ADMIN)
      await page.setViewportSize(size)
      // The board names the interviewer itself: no list of every user is fetched for it.
      const userLists: string[] = []
      page.on('request', (req) => new URL(req.url()).pathname === '/api/users/' && userLists.push(req.url()))
      await page.reload()
      if (phone) await page.getByRole('tab', { name: /^Interview/ }).click()
      const card = column(page, 'interview').getByTestId(`card-${r.id}`)
      const line = card.getByTestId('interview-line')
      await expect(line).toContainText(`Interviewer: ${interviewer.fname} ${interviewer.lname}`)
      await expect(
        column(page, 'interview').getByTestId(`card-${unassigned.id}`).getByTestId('interview-line'),
      ).toContainText('No interviewer yet')
      await page.waitForLoadState('networkidle')
      expect(userLists).toEqual([])
      await expect(line).toContainText('2030')
      await expect(line).toContainText('Mar')
      await expectNoSeriousAxe(page)
      if (phone) {
        await page.getByRole('tab', { name: /Presidency approval/ }).click()
        await expectNoSeriousAxe(page)
      }
      await page.context().close()
    })
  })
}

test('desktop: a keyboard move lands on the next valid stage only, and focus stays on the moved card', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const ward = await createWard(admin, unique('Distrito Centro '))
  const r = await releaseAtInterview(admin, ward.id, unique('Elio'))
  await admin.req('POST', `/api/calling-kanban/proposals/${r.id}/advance?from_stage=interview`)
  const page = await signInPage(browser, ADMIN)
  const handle = (stage: string) =>
    column(page, stage)
      .getByTestId(`card-${r.id}`)
      .getByRole('button', { name: `Drag ${r.name}` })
  // The page settles first (what loads after the board may take the focus once), then the handle holds it.
  await page.waitForLoadState('networkidle')
  await expect(async () => {
    await handle('sustain').focus()
    await expect(handle('sustain')).toBeFocused({ timeout: 1_000 })
  }).toPass()
  await page.keyboard.press('Space')
  // A release skips "Set apart": during the drag that column is dimmed and refuses the card.
  await expect(column(page, 'set_apart')).toHaveClass(/column-refuse/)
  await expect(column(page, 'interview')).not.toHaveClass(/column-refuse/)
  await expect(column(page, 'record')).not.toHaveClass(/column-refuse/)
  await page.keyboard.press('ArrowRight')
  await expect(column(page, 'record')).toHaveClass(/column-over/)
  await page.keyboard.press('Space')
  await expect(handle('record')).toBeFocused()
  await expect(column(page, 'set_apart')).not.toHaveClass(/column-refuse/)
  expect((await admin.req('GET', `/api/calling-kanban/proposals/${r.id}`)).stage).toBe('record')
  // The screen reader heard plain words, not the library's defaults.
  await expect(page.locator('[id^="DndLiveRegion"]')).toContainText(`${r.name} was dropped on Record.`)
  await page.context().close()
})

test('phone: the first tab is the one holding what awaits you, and it stays when that is fetched again', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const manager = await createUser(request, admin, 'Marta', unique('Pestana'))
  await admin.req('PUT', `/api/users/${manager.id}/permissions`, { permissions: ['proposals.manage'] })
  const ward = await createWard(admin, unique('Distrito Sur '))
  // A card at the first stage, and one at Interview that awaits the manager (no interviewer yet).
  const early = await proposalAt(admin, ward.id, 'sp_approval', unique('Primo'))
  const waiting = await releaseAtInterview(admin, ward.id, unique('Segundo'))

  const page = await (await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true })).newPage()
  // The page's clock, to reach the minute after which what awaits the caller is fetched again.
  await page.clock.install()
  // What awaits the caller arrives well after the board.
  await page.route('**/api/actions', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    await route.continue()
  })
  await page.goto('/signin')
  await page.getByLabel('Email').fill(manager.email)
  await page.getByLabel('Password').fill(manager.password)
  await page.getByRole('button', { name: 'Sign in' }).click()

  // The tabs show once the first tab is known: at once on Interview, not on the first stage and then elsewhere.
  const tablist = page.getByRole('tablist', { name: 'Stages' })
  await expect(tablist).toBeVisible()
  expect(await tablist.getByRole('tab', { selected: true }).textContent()).toMatch(/^Interview/)
  await expect(column(page, 'interview').getByTestId(`card-${waiting.id}`)).toBeVisible()

  // Once someone else is to interview it no longer awaits him; fetched again, the tab does not move.
  await page.unroute('**/api/actions')
  const interviewer = await createUser(request, admin, 'Elena', unique('Entrevista'))
  await admin.req('PUT', `/api/users/${interviewer.id}/permissions`, { permissions: ['proposals.view'] })
  await admin.req('POST', `/api/calling-kanban/proposals/${waiting.id}/interview?interviewer_id=${interviewer.id}`)
  const refetched = page.waitForResponse((r) => r.url().endsWith('/api/actions'))
  await page.clock.fastForward('01:01')
  await refetched
  await expect(page.getByTestId('needs-me-view').getByText(waiting.name)).toHaveCount(0)
  await expect(tablist.getByRole('tab', { selected: true })).toHaveText(/^Interview/)
  await expect(column(page, 'interview').getByTestId(`card-${waiting.id}`)).toBeVisible()
  await tablist.getByRole('tab', { name: /^Presidency approval/ }).click()
  await expect(column(page, 'sp_approval').getByTestId(`card-${early.id}`)).toBeVisible()
  await page.context().close()
})

test.describe('the setup checklist', () => {
  for (const size of [DESKTOP, PHONE]) {
    test(`${size === PHONE ? 'phone' : 'desktop'}: ticks off each step the server counts done and disappears when all are; dismissal is remembered`, async ({
      browser,
      request,
    }) => {
      await adminApi(request)
      // The steps are the server's to decide (its own tests walk each one through the data); here they are
      // served one more done each time, as GET /stake/setup and the first screen's `setup` part.
      const state: SetupState = { stake: false, wards: false, seats: false, users: false, proposal: false }
      const context = await browser.newContext({ viewport: size })
      const page = await context.newPage()
      await serveSetup(page, state)
      await page.goto('/signin')
      await page.getByLabel('Email').fill(ADMIN_EMAIL)
      await page.getByLabel('Password').fill(ADMIN_PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).click()

      const list = page.getByTestId('setup-checklist')
      await expect(list).toBeVisible()
      await expect(list).toContainText('0 of 5 done')
      const steps = [
        ['stake', 'The stake itself', '/manage/stake'],
        ['wards', 'Each ward and its bishop', '/manage/wards'],
        ['seats', 'Presidency and high-council seats', '/manage/callings'],
        ['users', 'People who use the service', '/manage/users'],
        ['proposal', 'A first proposal', '/proposals/new'],
      ] as const
      for (const [, name, href] of steps) {
        await expect(list.getByRole('link', { name })).toHaveAttribute('href', href)
      }
      for (const [i, [key]] of steps.entries()) {
        state[key] = true
        await page.reload()
        if (i < steps.length - 1) {
          await expect(list.locator(`[data-step="${key}"]`)).toHaveAttribute('data-done', 'true')
          await expect(list).toContainText(`${i + 1} of 5 done`)
        }
      }
      await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
      await expect(page.getByTestId('board-notice')).toHaveCount(1)
      await expect(list).toHaveCount(0)

      // Undone again, it comes back; hidden by the user, it stays hidden.
      Object.assign(state, { stake: false, wards: false, seats: false, users: false, proposal: false })
      await page.reload()
      await expect(list).toBeVisible()
      await list.getByRole('button', { name: 'Hide this list' }).click()
      await expect(list).toHaveCount(0)
      await page.reload()
      await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
      await expect(page.getByTestId('needs-me-view')).toBeVisible()
      await expect(list).toHaveCount(0)
      await context.close()
    })
  }
})

test('in Spanish the board speaks Spanish: "Needs me", the stages, the drag instructions', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const user = await createUser(request, admin, 'Lucia', unique('Idioma'))
  await admin.req('PUT', `/api/users/${user.id}`, {
    email: user.email,
    fname: user.fname,
    lname: user.lname,
    language: 'es',
  })
  const context = await browser.newContext({ viewport: DESKTOP })
  const page = await context.newPage()
  await page.goto('/signin')
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel(/Password|Contraseña/).fill(user.password)
  await page.getByRole('button', { name: /Sign in|Iniciar sesión/ }).click()
  await expect(page.getByRole('heading', { name: 'Propuestas de llamamientos' })).toBeVisible()
  await expect(page.getByRole('heading', { name: /Me necesitan/ })).toBeVisible()
  await expect(page.getByText('Nada le espera por ahora.')).toBeVisible()
  await expect(page.getByRole('heading', { name: /Aprobación del sumo consejo/ })).toBeVisible()
  await expect(page.getByRole('heading', { name: /Cerradas recientemente/ })).toBeVisible()
  await expect(page.locator('[id^="DndDescribedBy"]')).toContainText('Para mover esta propuesta')
  await context.close()
})
