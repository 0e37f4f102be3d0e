import { expect, test, type Page } from '@playwright/test'
import { join } from 'node:path'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, createUser, seat, type Api } from './api'

/**
 * Screenshots of the main screens at desktop (1280×800) and phone (375×812)
 * width, saved to docs/screenshots/ for the README. The data is set up here
 * through the API so the pictures show a realistic board.
 */
const SIZES = [
  { tag: 'desktop', viewport: { width: 1280, height: 800 } },
  { tag: 'phone', viewport: { width: 375, height: 812 } },
] as const

async function wardNamed(admin: Api, name: string, startTime: number, bishopId: number | null = null) {
  const wards = await admin.req('GET', '/api/wards/')
  return (
    wards.find((w: any) => w.name === name) ??
    admin.req('POST', '/api/wards/', { name, start_time: startTime, bishop_id: bishopId })
  )
}

async function propose(admin: Api, body: Record<string, unknown>, moves: string[] = []) {
  let p = await admin.req('POST', '/api/calling-kanban/proposals', { spouse_name: null, is_release: false, ...body })
  for (const from of moves)
    p = await admin.req('POST', `/api/calling-kanban/proposals/${p.id}/advance?from_stage=${from}`)
  return p
}

async function seed(request: Parameters<typeof adminApi>[0]) {
  const admin = await adminApi(request)
  const maple = await wardNamed(admin, 'Maple Grove Ward', 540)
  const cedar = await wardNamed(admin, 'Cedar Park Ward', 630)
  const river = await wardNamed(admin, 'Riverbend Ward', 780)
  const sp = await createUser(request, admin, 'Samuel', 'Whitaker')
  await seat(admin, 'stake_second_counselor', sp.id).catch(() => undefined)
  for (const [f, l] of [
    ['Elena', 'Marsh'],
    ['Tomas', 'Reyes'],
    ['Grace', 'Holloway'],
  ]) {
    const hc = await createUser(request, admin, f!, l!)
    await seat(admin, 'high_councilor', hc.id).catch(() => undefined)
  }
  const first = await propose(admin, {
    fname: 'Alicia',
    lname: 'Moreno',
    spouse_name: 'Javier Moreno',
    proposed_calling: 'Relief Society President',
    ward_id: maple.id,
  })
  await propose(admin, {
    fname: 'Benjamin',
    lname: 'Cho',
    proposed_calling: 'Elders Quorum President',
    ward_id: cedar.id,
  })
  await propose(
    admin,
    { fname: 'Hannah', lname: 'Lindqvist', proposed_calling: 'Young Women President', ward_id: river.id },
    ['sp_approval'],
  )
  await propose(
    admin,
    {
      fname: 'Daniel',
      lname: 'Okoro',
      spouse_name: 'Ruth Okoro',
      proposed_calling: 'Ward Mission Leader',
      ward_id: maple.id,
    },
    ['sp_approval', 'hc_approval'],
  )
  await propose(admin, {
    fname: 'Peter',
    lname: 'Vance',
    proposed_calling: 'Sunday School President',
    ward_id: cedar.id,
    is_release: true,
  })
  await propose(
    admin,
    { fname: 'Lucia', lname: 'Ferreira', proposed_calling: 'Primary Secretary', ward_id: river.id },
    ['sp_approval', 'hc_approval', 'interview'],
  )
  await propose(
    admin,
    { fname: 'Owen', lname: 'Gallagher', proposed_calling: 'Stake Clerk Assistant', ward_id: maple.id },
    ['sp_approval', 'hc_approval', 'interview', 'sustain'],
  )
  await admin.req('POST', `/api/calling-kanban/proposals/${first.id}/comments`, {
    proposal_id: first.id,
    comment_text: 'She served as counselor for three years and is well loved in the ward.',
  })
  const year = new Date().getFullYear()
  await admin
    .req('PUT', `/api/speaking/topics/${year}/1`, { topic: 'Faith in Jesus Christ', reference: null })
    .catch(() => undefined)
  await admin
    .req('PUT', `/api/speaking/topics/${year}/2`, { topic: 'Ministering', reference: null })
    .catch(() => undefined)
  return { proposalId: first.id as number }
}

// The README's pictures are refreshed only on request (UPDATE_SCREENSHOTS=1), so
// an ordinary test run leaves the tracked files alone.
const SCREENSHOT_DIR =
  process.env.UPDATE_SCREENSHOTS === '1' ? ['..', 'docs', 'screenshots'] : ['..', 'test-results', 'screenshots']

async function shoot(page: Page, name: string, tag: string) {
  const out = join(test.info().config.rootDir, ...SCREENSHOT_DIR, `${name}-${tag}.png`)
  // Quiet network makes a tidier picture, but is not guaranteed (background
  // refreshes and prefetches); what must be on screen was asserted already.
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined)
  await expect(page.locator('.loading')).toHaveCount(0)
  await page.screenshot({ path: out })
}

test('screenshots of the main screens at desktop and phone width', async ({ browser, request }) => {
  test.setTimeout(120_000)
  const { proposalId } = await seed(request)
  for (const { tag, viewport } of SIZES) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 })
    const page = await context.newPage()
    await page.goto('/signin')
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
    await shoot(page, 'signin', tag)

    await page.getByLabel('Email').fill(ADMIN_EMAIL)
    await page.getByLabel('Password').fill(ADMIN_PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
    // The picture is of the board: the first-run list is put away (this browser only).
    await page.getByRole('button', { name: 'Hide this list' }).click()
    // On a phone the stages are tabs and the board opens on the stage holding work for the viewer.
    if (tag === 'phone') await page.getByRole('tab', { name: /^Presidency approval/ }).click()
    await expect(page.getByText('Alicia Moreno').first()).toBeVisible()
    await shoot(page, 'board', tag)

    await page.goto(`/proposals/${proposalId}`)
    await expect(page.getByRole('heading', { name: /Alicia Moreno/ })).toBeVisible()
    await shoot(page, 'proposal', tag)

    await page.goto('/schedule')
    await expect(page.getByRole('table')).toBeVisible()
    await shoot(page, 'speaking', tag)
    if (tag === 'desktop') {
      // The print stylesheet: no navigation or buttons, the grid on the page.
      await page.emulateMedia({ media: 'print' })
      await expect(page.locator('.topbar')).toBeHidden()
      await shoot(page, 'speaking-print', tag)
      await page.emulateMedia({ media: 'screen' })
    }

    await page.goto('/manage/callings')
    await expect(page.getByRole('link', { name: 'High Councilor' })).toBeVisible()
    await shoot(page, 'callings', tag)

    await page.goto('/manage/users')
    await expect(page.getByRole('cell', { name: ADMIN_EMAIL })).toBeVisible()
    await shoot(page, 'users', tag)

    await page.goto('/public')
    await expect(page.getByRole('heading', { name: 'Wards and meeting times' })).toBeVisible()
    await shoot(page, 'public', tag)
    await context.close()
  }
})
