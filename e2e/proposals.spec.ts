import { expect, test, type Browser, type Locator, type Page } from '@playwright/test'
import {
  adminApi,
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createUser,
  createWard,
  seat,
  signInPage,
  unique,
  type Account,
} from './api'

/**
 * Drags with real pointer events, as a person would (dnd-kit's pointer
 * sensor), and drops only once the column shows the card is over it. A drag
 * that did not take (the page moved under the pointer while it settled) is let
 * go with Escape and tried again, as a person would.
 */
async function dragTo(page: Page, card: Locator, column: Locator) {
  for (let attempt = 1; ; attempt++) {
    // The card may sit low in a long column: bring it to the middle of the
    // screen (clear of the notices in the corners), then move it sideways (the
    // columns are as tall as the tallest one).
    await card.evaluate((el) => el.scrollIntoView({ block: 'center' }))
    // The page settles first ("Needs me" and the board refetch after each move): no shift under the pointer.
    await page.waitForLoadState('networkidle')
    const from = (await card.locator('.pcard-calling').boundingBox())!
    const to = (await column.boundingBox())!
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
    await page.mouse.down()
    await page.mouse.move(from.x + from.width / 2 + 12, from.y + from.height / 2 + 4, { steps: 4 })
    await page.mouse.move(to.x + to.width / 2, from.y + from.height / 2, { steps: 12 })
    try {
      await expect(column).toHaveClass(/column-over/, { timeout: attempt < 3 ? 5_000 : 10_000 })
      break
    } catch (error) {
      if (attempt >= 3) throw error
      await page.keyboard.press('Escape')
      await page.mouse.up()
    }
  }
  await page.mouse.up()
}

const column = (page: Page, stage: string) => page.locator(`section[data-stage="${stage}"]`)

async function approveOnBoard(browser: Browser, voter: Account, name: string) {
  const page = await signInPage(browser, voter)
  const card = page.getByRole('article', { name })
  await expect(card).toBeVisible()
  await card.getByRole('button', { name: `Approve ${name}` }).click()
  await expect(page.getByText('Approval recorded.')).toBeVisible({ timeout: 15_000 })
  await page.context().close()
}

test('a bishop submits, the presidency and high council vote it through, a manager drags it to done', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000)
  const admin = await adminApi(request)

  // Setup through the API: the people and seats this story needs.
  const bishop = await createUser(request, admin, 'Bishop', 'Aldana')
  const ward = await createWard(admin, unique('Riverside '), bishop.id, 570)
  const presidency = [await createUser(request, admin, 'Pres', 'One'), await createUser(request, admin, 'Pres', 'Two')]
  await seat(admin, 'stake_president', presidency[0]!.id)
  await seat(admin, 'stake_first_counselor', presidency[1]!.id)
  const councilors: Account[] = []
  for (let i = 0; i < 3; i++) {
    const hc = await createUser(request, admin, 'Council', `Member${i}`)
    await seat(admin, 'high_councilor', hc.id)
    councilors.push(hc)
  }

  // 1. The bishop proposes someone; the ward is fixed to his own.
  const bp = await signInPage(browser, bishop)
  await bp.getByRole('link', { name: 'New proposal' }).click()
  await expect(bp.getByRole('heading', { name: 'New proposal' })).toBeVisible()
  await expect(bp.getByLabel('Ward')).toHaveValue(ward.name)
  await expect(bp.getByLabel('Ward')).not.toBeEditable()
  // Validation happens before anything is sent.
  await bp.getByRole('button', { name: 'Submit proposal' }).click()
  await expect(bp.getByText('Enter the first name.')).toBeVisible()
  const fname = unique('Mara')
  const name = `${fname} Quintana`
  await bp.getByLabel('First name').fill(fname)
  await bp.getByLabel('Last name').fill('Quintana')
  await bp.getByLabel('Spouse name').fill('Diego Quintana')
  await bp.getByLabel('Proposed calling').fill('Primary President')
  await bp.getByRole('button', { name: 'Submit proposal' }).click()
  await expect(bp).toHaveURL(/\/proposals\/\d+$/)
  await expect(bp.getByRole('heading', { name: new RegExp(name) })).toBeVisible()
  const id = Number(bp.url().split('/').pop())
  await bp.getByLabel('Add a comment').fill('Has served faithfully in the nursery.')
  await bp.getByRole('button', { name: 'Post comment' }).click()
  await expect(bp.getByText('Has served faithfully in the nursery.')).toBeVisible()
  await bp.context().close()

  // 2. Two of the presidency approve on the board: it moves to high council approval.
  for (const p of presidency) await approveOnBoard(browser, p, name)
  // 3. Three high councilors approve: it moves to the interview.
  for (const hc of councilors) {
    const page = await signInPage(browser, hc)
    const card = column(page, 'hc_approval').getByRole('article', { name })
    await expect(card).toBeVisible()
    await card.getByRole('button', { name: `Approve ${name}` }).click()
    await expect(
      card.getByText('You approved').or(column(page, 'interview').getByRole('article', { name })),
    ).toBeVisible({ timeout: 15_000 })
    await page.context().close()
  }

  // 4. A manager drags it along, one stage at a time, to done.
  const mp = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  const card = (stage: string) => column(mp, stage).getByTestId(`card-${id}`)
  await expect(card('interview')).toBeVisible()
  for (const [from, to] of [
    ['interview', 'sustain'],
    ['sustain', 'set_apart'],
    ['set_apart', 'record'],
    ['record', 'done'],
  ] as const) {
    await dragTo(mp, card(from), column(mp, to))
    await expect(card(to)).toBeVisible()
    await expect(card(from)).toHaveCount(0)
  }

  // The proposal page shows the whole history.
  await card('done').getByRole('link', { name }).click()
  await expect(mp.getByRole('heading', { name: 'History' })).toBeVisible()
  const timeline = mp.locator('.history .timeline li')
  await expect(timeline).toHaveCount(7) // submitted + 6 moves
  await expect(mp.getByText('Has served faithfully in the nursery.')).toBeVisible()
  await mp.context().close()
})

test('a stale drag (someone else moved the card) reloads the board and says so', async ({ browser, request }) => {
  const admin = await adminApi(request)
  const ward = await createWard(admin, unique('Hillcrest '))
  const created = await admin.req('POST', '/api/calling-kanban/proposals', {
    fname: unique('Stale'),
    lname: 'Card',
    spouse_name: null,
    proposed_calling: 'Ward Clerk',
    ward_id: ward.id,
    is_release: true,
  })
  expect(created.stage).toBe('interview')
  const mp = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  const cardIn = (stage: string) => column(mp, stage).getByTestId(`card-${created.id}`)
  await expect(cardIn('interview')).toBeVisible()

  // Another manager moves it first.
  await admin.req('POST', `/api/calling-kanban/proposals/${created.id}/advance?from_stage=interview`)
  // This board still shows it at interview, so the drag asks interview → sustain.
  await dragTo(mp, cardIn('interview'), column(mp, 'sustain'))
  await expect(mp.getByText('Someone else has already moved this proposal')).toBeVisible()
  await expect(cardIn('sustain')).toBeVisible()
  await mp.context().close()
})

test('a manager can move a card with the keyboard alone', async ({ browser, request }) => {
  const admin = await adminApi(request)
  const ward = await createWard(admin, unique('Keyboard '))
  const created = await admin.req('POST', '/api/calling-kanban/proposals', {
    fname: unique('Kai'),
    lname: 'Board',
    spouse_name: null,
    proposed_calling: 'Librarian',
    ward_id: ward.id,
    is_release: true,
  })
  const mp = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  const cardIn = (stage: string) => column(mp, stage).getByTestId(`card-${created.id}`)
  await expect(cardIn('interview')).toBeVisible()
  // Focus the card's drag handle (a button: the card itself is not one) and
  // lift, move, drop — waiting for each step to show (lifted, then over the
  // next column) as a user would see it, since the drop goes wherever the
  // card is over at that moment.
  const wrapper = cardIn('interview').locator('xpath=..')
  await cardIn('interview')
    .getByRole('button', { name: /^Drag / })
    .focus()
  await mp.keyboard.press('Space')
  await expect(wrapper).toHaveClass(/is-dragging/)
  await mp.keyboard.press('ArrowRight')
  await expect(column(mp, 'sustain')).toHaveClass(/column-over/)
  await mp.keyboard.press('Space')
  await expect(cardIn('sustain')).toBeVisible()
  // Focus stays on the moved card, now in its new column.
  await expect(cardIn('sustain').getByRole('button', { name: /^Drag / })).toBeFocused()
  // Enter on the name link still opens the proposal.
  await cardIn('sustain').getByRole('link').focus()
  await mp.keyboard.press('Enter')
  await expect(mp).toHaveURL(new RegExp(`/proposals/${created.id}$`))
  await mp.context().close()
})

test('two quick moves of one card: the second waits for the first, with no false conflict', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const ward = await createWard(admin, unique('Quick '))
  const created = await admin.req('POST', '/api/calling-kanban/proposals', {
    fname: unique('Quinn'),
    lname: 'Twice',
    spouse_name: null,
    proposed_calling: 'Ward Librarian',
    ward_id: ward.id,
    is_release: true,
  })
  const mp = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  const cardIn = (stage: string) => column(mp, stage).getByTestId(`card-${created.id}`)
  await expect(cardIn('interview')).toBeVisible()
  // A slow server: the first move's answer takes a while, so the second is asked for before it is in.
  let first = true
  await mp.route(`**/api/calling-kanban/proposals/${created.id}/advance**`, async (route) => {
    if (first) {
      first = false
      await new Promise((resolve) => setTimeout(resolve, 1_500))
    }
    await route.continue()
  })
  const moveRight = async (from: string, to: string) => {
    await cardIn(from)
      .getByRole('button', { name: /^Drag / })
      .focus()
    await mp.keyboard.press('Space')
    await mp.keyboard.press('ArrowRight')
    await expect(column(mp, to)).toHaveClass(/column-over/)
    await mp.keyboard.press('Space')
    await expect(cardIn(to)).toBeVisible()
  }
  await moveRight('interview', 'sustain')
  await moveRight('sustain', 'record')
  await expect(mp.getByTestId('board-notice')).toHaveText(`${created.fname} Twice moved to Record.`, {
    timeout: 15_000,
  })
  await expect(mp.getByText('Someone else has already moved this proposal')).toHaveCount(0)
  await expect(cardIn('record')).toBeVisible()
  const stored = await admin.req('GET', `/api/calling-kanban/proposals/${created.id}`)
  expect(stored.stage).toBe('record')
  await mp.context().close()
})

test('a card dropped on the closed column stays there when the column’s first page was asked before the move ended', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const ward = await createWard(admin, unique('Cierre '))
  let p = await admin.req('POST', '/api/calling-kanban/proposals', {
    fname: unique('Cora'),
    lname: 'Closing',
    spouse_name: null,
    proposed_calling: 'Librarian',
    ward_id: ward.id,
    is_release: true,
  })
  while (p.stage !== 'record') {
    p = await admin.req('POST', `/api/calling-kanban/proposals/${p.id}/advance?from_stage=${p.stage}`)
  }
  const mp = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  // The closed column's page is read at once but answered late: the first one is read before the move is saved.
  await mp.route(/\/api\/calling-kanban\/board\/closed\b/, async (route) => {
    const res = await route.fetch()
    await new Promise((r) => setTimeout(r, 1_500))
    await route.fulfill({ response: res })
  })
  const cardIn = (stage: string) => column(mp, stage).getByTestId(`card-${p.id}`)
  await expect(cardIn('record')).toBeVisible()
  await cardIn('record')
    .getByRole('button', { name: /^Drag / })
    .focus()
  await mp.keyboard.press('Space')
  await mp.keyboard.press('ArrowRight')
  await expect(column(mp, 'done')).toHaveClass(/column-over/)
  const pages: string[] = []
  mp.on('requestfinished', (r) => {
    if (r.url().includes('/board/closed')) pages.push(r.url())
  })
  await mp.keyboard.press('Space')
  await expect(cardIn('done')).toBeVisible()
  // Once every page asked for has come, the card is still in the closed column.
  await expect.poll(() => pages.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2)
  await mp.waitForTimeout(500)
  await expect(cardIn('done')).toBeVisible()
  await mp.context().close()
})
