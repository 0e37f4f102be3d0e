import { expect, test, type Browser, type Page } from '@playwright/test'
import { adminApi, createUser, createWard, unique, type Account } from './api'

/** Notifications in the browser (docs/api-reference.md §11): the bell, the inbox, the email preference and "Remind", at phone and desktop size. */
const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
]

async function signIn(browser: Browser, account: { email: string; password: string }, size: (typeof SIZES)[number]) {
  const context = await browser.newContext({
    viewport: size.viewport,
    isMobile: size.isMobile,
    hasTouch: size.isMobile,
  })
  const page = await context.newPage()
  await page.goto('/signin')
  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Password').fill(account.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
  return page
}

const bell = (page: Page) => page.getByTestId('bell')

for (const size of SIZES) {
  test.describe(`notifications (${size.name})`, () => {
    test('the bell counts unread notifications; the inbox reads them one by one and all at once', async ({
      browser,
      request,
    }) => {
      const admin = await adminApi(request)
      const bishop: Account = await createUser(request, admin, unique('Bell'))
      const ward = await createWard(admin, unique('Bell ward '), bishop.id)
      const fname = unique('Ana')
      const proposal = await admin.req('POST', '/api/calling-kanban/proposals', {
        fname,
        lname: 'Inbox',
        proposed_calling: 'Ward librarian',
        ward_id: ward.id,
        submitter: bishop.id,
      })
      // The bishop hears of his proposal moving on and of a comment on it.
      await admin.req('POST', `/api/calling-kanban/proposals/${proposal.id}/advance?from_stage=sp_approval`)
      await admin.req('POST', `/api/calling-kanban/proposals/${proposal.id}/comments`, { comment_text: 'Looks good' })

      const page = await signIn(browser, bishop, size)
      await expect(bell(page)).toHaveAccessibleName('Notifications: 2 unread')
      await expect(page.getByTestId('bell-count')).toHaveText('2')

      await bell(page).click()
      await expect(page).toHaveURL(/\/inbox$/)
      await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible()
      const items = page.locator('.inbox-item')
      await expect(items).toHaveCount(2)
      await expect(items.first()).toContainText(`commented on ${fname} Inbox as Ward librarian`)
      await expect(items.nth(1)).toContainText(`${fname} Inbox as Ward librarian moved to high council approval`)

      await items.first().getByRole('button', { name: 'Mark read' }).click()
      await expect(page.getByTestId('bell-count')).toHaveText('1')
      await expect(items.first().getByRole('button', { name: 'Mark read' })).toHaveCount(0)

      await page.getByRole('button', { name: 'Unread (1)' }).click()
      await expect(items).toHaveCount(1)
      await page.getByRole('button', { name: 'Mark all read' }).click()
      await expect(page.getByText('Nothing unread.')).toBeVisible()
      await expect(page.getByTestId('bell-count')).toHaveCount(0)
      await expect(bell(page)).toHaveAccessibleName('Notifications: 0 unread')

      await page.getByRole('button', { name: 'All', exact: true }).click()
      await items.first().getByRole('link', { name: 'Open proposal' }).click()
      await expect(page).toHaveURL(new RegExp(`/proposals/${proposal.id}$`))
      await page.context().close()
    })

    test('the email preference is kept in the profile', async ({ browser, request }) => {
      const admin = await adminApi(request)
      const user = await createUser(request, admin, unique('Pref'))
      const page = await signIn(browser, user, size)
      await page.goto('/profile')
      const section = page.getByRole('region', { name: 'Email notifications' })
      await expect(section.getByRole('radio', { name: 'Each notification right away' })).toBeChecked()
      await section.getByRole('radio', { name: 'One summary a day' }).check()
      await expect(page.getByText('Email preference saved.')).toBeVisible()
      await page.reload()
      await expect(
        page.getByRole('region', { name: 'Email notifications' }).getByRole('radio', { name: 'One summary a day' }),
      ).toBeChecked()
      await page.context().close()
    })

    test('a manager reminds the missing voters from the proposal page and from a board card, once an hour', async ({
      browser,
      request,
    }) => {
      const admin = await adminApi(request)
      const manager = await createUser(request, admin, unique('Remind'))
      await admin.req('PUT', `/api/users/${manager.id}/permissions`, { permissions: ['proposals.manage'] })
      const ward = await createWard(admin, unique('Remind ward '))
      const submit = (fname: string) =>
        admin.req('POST', '/api/calling-kanban/proposals', {
          fname,
          lname: 'Waiting',
          proposed_calling: 'Sunday school teacher',
          ward_id: ward.id,
        })
      const onPage = await submit(unique('Pia'))
      const onCard = await submit(unique('Caro'))

      const page = await signIn(browser, manager, size)
      await page.goto(`/proposals/${onPage.id}`)
      const votes = page.getByRole('region', { name: 'Votes' })
      await votes.getByRole('button', { name: 'Remind' }).click()
      await expect(page.getByText(/^Reminded \d+ voters?\.$/)).toBeVisible()
      await votes.getByRole('button', { name: 'Remind' }).click()
      await expect(page.getByText(/reminded less than an hour ago; try again in 60 minutes/)).toBeVisible()

      await page.goto('/board')
      // On a phone the stages are tabs, and the first one shown may be another stage that awaits this manager.
      if (size.isMobile) await page.getByRole('tab', { name: /^Presidency approval/ }).click()
      const card = page.getByRole('article', { name: `${onCard.fname} Waiting` })
      // On a card, Remind is in its menu of actions.
      await card.getByRole('button', { name: `Actions for ${onCard.fname} Waiting` }).click()
      await page.getByRole('menuitem', { name: /^Remind/ }).click()
      await expect(page.getByText(/^Reminded \d+ voters?\.$/)).toBeVisible()
      await page.context().close()
    })
  })
}
