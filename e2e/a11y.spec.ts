import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Browser, type Page } from '@playwright/test'
import type { APIRequestContext } from '@playwright/test'
import {
  adminApi,
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  Api,
  callingByKey,
  createUser,
  createUserRaw,
  createWard,
  unique,
} from './api'

/**
 * axe-core on every page, at phone (390×844) and desktop size: no critical
 * and no serious violation of WCAG 2.1 A/AA nor of axe's best practices
 * (a phone and a screen reader must reach every control). Each page is checked once its content has loaded, on
 * a stake with every state a page can show (unread count of 10 and more,
 * declined and recorded cards, call and release badges, votes waiting in
 * "Needs me"), so the rules see what a user sees.
 */

/** WCAG 2.0 and 2.1, A and AA, and axe's best practices (the 2.1 rules found what 2.0 alone missed). */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
] as const

async function expectAccessible(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze()
  const bad = results.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')
  const report = bad.map(
    (v) =>
      `${v.impact} ${v.id}: ${v.help}\n` +
      v.nodes
        .slice(0, 5)
        .map((n) => `    ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join(' ').trim()}`)
        .join('\n'),
  )
  // Soft: one run lists every page's violations, not only the first page's.
  expect.soft(report, `${what}: critical or serious axe violations`).toEqual([])
}

async function newPage(browser: Browser, size: (typeof SIZES)[number]) {
  const context = await browser.newContext({
    viewport: size.viewport,
    isMobile: size.isMobile,
    hasTouch: size.hasTouch,
  })
  return context.newPage()
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/signin')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

/** Some of everything, so every page has content to check. */
async function stake(admin: Api, request: APIRequestContext) {
  const ward = await createWard(admin, unique('Axe Ward '))
  const proposal = await admin.req('POST', '/api/calling-kanban/proposals', {
    fname: unique('Alma'),
    lname: 'Reyes',
    spouse_name: 'Luis Reyes',
    proposed_calling: 'Ward Clerk',
    ward_id: ward.id,
    is_release: false,
  })
  const release = await admin.req('POST', '/api/calling-kanban/proposals', {
    fname: unique('Bruno'),
    lname: 'Sato',
    spouse_name: null,
    proposed_calling: 'Organist',
    ward_id: ward.id,
    is_release: true,
  })
  // Every state a card shows: declined, recorded (done), further stages; and 12 unread notifications.
  const declined = await admin.req('POST', '/api/calling-kanban/proposals', {
    fname: unique('Dora'),
    lname: 'Quispe',
    proposed_calling: 'Ward Librarian',
    ward_id: ward.id,
  })
  await admin.req('POST', `/api/calling-kanban/proposals/${declined.id}/decline`, { reason: 'Moving away' })
  const recorded = await admin.req('POST', '/api/calling-kanban/proposals', {
    fname: unique('Emil'),
    lname: 'Novak',
    proposed_calling: 'Sunday School Teacher',
    ward_id: ward.id,
  })
  for (const from of ['sp_approval', 'hc_approval', 'interview', 'sustain', 'set_apart', 'record'])
    await admin.req('POST', `/api/calling-kanban/proposals/${recorded.id}/advance?from_stage=${from}`)
  const clerk = await createUser(request, admin, unique('Clara'), 'Ibarra')
  await admin.req('PUT', `/api/users/${clerk.id}/permissions`, { permissions: ['proposals.view', 'proposals.manage'] })
  const asClerk = new Api(request, clerk.email, clerk.password)
  for (let i = 0; i < 12; i++)
    await asClerk.req('POST', `/api/calling-kanban/proposals/${proposal.id}/comments`, {
      comment_text: `Note ${i + 1} about this calling.`,
    })
  const year = new Date().getFullYear()
  await admin.req('PUT', `/api/speaking/topics/${year}/${new Date().getMonth() + 1}`, {
    topic: 'Faith',
    reference: null,
  })
  const hc = await callingByKey(admin, 'high_councilor')
  return {
    proposal,
    callingId: hc.id as number,
    // The specs share one database: leave the board as it was.
    async cleanUp() {
      for (const p of [proposal, release, declined, recorded])
        await admin.req('DELETE', `/api/calling-kanban/proposals/${p.id}`).catch(() => undefined)
      // A recorded proposal stays (it is the ward's record): so does its ward.
      await admin.req('DELETE', `/api/wards/${ward.id}`).catch(() => undefined)
    },
  }
}

for (const size of SIZES) {
  test(`${size.name}: every page has no critical or serious axe violation`, async ({ browser, request }) => {
    test.setTimeout(360_000)
    const admin = await adminApi(request)
    const { proposal, callingId, cleanUp } = await stake(admin, request)

    // Signed out: sign-in and the public page.
    const anonymous = await newPage(browser, size)
    await anonymous.goto('/signin')
    await expect(anonymous.getByRole('heading', { name: 'Sign in' })).toBeVisible()
    await expectAccessible(anonymous, 'sign-in')
    await anonymous.goto('/public')
    await expect(anonymous.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(anonymous.locator('.loading')).toHaveCount(0)
    await expectAccessible(anonymous, 'public')

    // A new user's forced password change.
    const fresh = await createUserRaw(admin, unique('Axel'))
    await signIn(anonymous, fresh.email, fresh.password)
    await expect(anonymous.getByRole('heading', { name: 'Choose a new password' })).toBeVisible()
    await expectAccessible(anonymous, 'change password')
    await anonymous.context().close()

    // Signed in as the administrator: every page.
    const page = await newPage(browser, size)
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD)
    await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
    const pages: [string, string, string | RegExp][] = [
      ['board', '/board', 'Calling proposals'],
      ['proposal page', `/proposals/${proposal.id}`, new RegExp(proposal.fname)],
      ['new proposal', '/proposals/new', /proposal/i],
      ['speaking', '/schedule', /Speaking schedule/],
      ['callings', '/manage/callings', 'Callings'],
      ['calling', `/manage/callings/${callingId}`, /High Councilor/],
      ['users', '/manage/users', 'Users'],
      ['wards', '/manage/wards', 'Wards'],
      ['profile', '/profile', /profile/i],
      ['inbox', '/inbox', 'Notifications'],
      ['sustainings', '/sustaining', 'Sustainings'],
      ['archive', '/archive', 'Archive'],
      ['webhooks', '/manage/webhooks', 'Webhooks'],
      ['audit log', '/manage/audit', 'Audit log'],
    ]
    for (const [what, path, heading] of pages) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
      await expect(page.locator('.loading')).toHaveCount(0)
      await expectAccessible(page, what)
    }
    await page.context().close()
    await cleanUp()
  })
}
