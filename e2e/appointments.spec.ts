import { expect, test, type Browser, type Page } from '@playwright/test'
import ICAL from 'ical.js'
import { expectAccessible } from './axe'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, createUser, createWard, login, signInPage, unique, Api } from './api'

/**
 * Appointments (docs/api-reference.md §18): a member books, moves and cancels an
 * interview through a link at phone size; two people taking one time at once
 * get one booking and one "that time was just taken"; the interviewer's
 * calendar feed (read back with ical.js) carries it; the Sunday plan warns of
 * a double assignment.
 */
const PHONE = { width: 390, height: 844 }
/** Every day 07:00–22:00: free times whatever day and hour the run happens. */
const EVERY_DAY = Array.from({ length: 7 }, (_, weekday) => ({ weekday, start_minute: 7 * 60, end_minute: 22 * 60 }))

async function interviewer(request: Parameters<typeof adminApi>[0], admin: Api) {
  const user = await createUser(request, admin, unique('Ivan'), 'Interviewer')
  await admin.req('PUT', `/api/appointments/availability?user_id=${user.id}`, { weekly: EVERY_DAY, exceptions: [] })
  return user
}

async function offer(admin: Api, interviewerId: number, name: string): Promise<string> {
  const body = await admin.req('POST', '/api/appointments/offers', {
    kind: 'temple_recommend',
    name,
    interviewer_id: interviewerId,
    duration_minutes: 30,
  })
  expect(body.url).toMatch(/\/booking#[A-Za-z0-9_-]{43}$/)
  return body.url
}

async function phonePage(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE })
  const page = await context.newPage()
  await page.goto(url)
  await expect(page.getByRole('heading', { name: 'Book your interview' })).toBeVisible()
  return page
}

const tokenOf = (url: string) => url.split('#')[1]!

test('a member books, moves and cancels through the link on a phone; the feed shows it', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const ivan = await interviewer(request, admin)
  const url = await offer(admin, ivan.id, 'Maria Member')
  const page = await phonePage(browser, url)
  await expect(page.getByText(/Maria Member, choose a time for your temple recommend interview/)).toBeVisible()
  await expectAccessible(page, 'booking page')
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)
  expect(fits, 'nothing wider than the phone').toBe(true)

  // Book the first free time.
  const slots = page.locator('.booking-slot')
  await slots.first().click()
  await page.getByRole('button', { name: /^Book / }).click()
  await expect(page.getByRole('heading', { name: 'Your interview is booked', level: 1 })).toBeVisible()
  const api = (await request.get(`/api/appointments/book/${tokenOf(url)}`)).json()
  const first = (await api).booking.starts_at as string

  // Move it to another time.
  await page.getByRole('button', { name: 'Change time' }).click()
  await page.locator('.booking-slot').nth(2).click()
  await page.getByRole('button', { name: /^Move to / }).click()
  await expect(page.getByText('Your interview has a new time.')).toBeVisible()
  const moved = (await (await request.get(`/api/appointments/book/${tokenOf(url)}`)).json()).booking.starts_at as string
  expect(moved).not.toBe(first)

  // The interviewer's calendar feed, read back with an iCalendar library.
  const token = await login(request, ivan.email, ivan.password)
  const feedUrl = (
    await (await request.post('/api/speaking/feed', { headers: { Authorization: `Bearer ${token}` } })).json()
  ).url as string
  const ics = await (await request.get(feedUrl)).text()
  const events = new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent').map((c) => new ICAL.Event(c))
  const event = events.find((e) => e.summary === 'Temple recommend interview: Maria Member')
  expect(event, ics).toBeTruthy()
  expect(event!.startDate.toJSDate().toISOString()).toBe(moved)

  // Cancel, after a confirmation.
  await page.getByRole('button', { name: 'Cancel interview' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toContainText('will be cancelled')
  await dialog.getByRole('button', { name: 'Cancel interview' }).click()
  await expect(page.getByText('Your interview is cancelled.')).toBeVisible()
  expect((await (await request.get(`/api/appointments/book/${tokenOf(url)}`)).json()).booking).toBeNull()
  await page.context().close()
})

test('two people take the same time at once: one booking, one "that time was just taken"', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const ivan = await interviewer(request, admin)
  const pages = [
    await phonePage(browser, await offer(admin, ivan.id, 'Ann Early')),
    await phonePage(browser, await offer(admin, ivan.id, 'Ben Late')),
  ]
  for (const page of pages) {
    await page.locator('.booking-slot').first().click()
    await expect(page.getByRole('button', { name: /^Book / })).toBeEnabled()
  }
  await Promise.all(pages.map((page) => page.getByRole('button', { name: /^Book / }).click()))
  const outcome = async (page: Page) => {
    const booked = page.getByRole('heading', { name: 'Your interview is booked', level: 1 })
    const taken = page.getByText('That time was just taken. Please choose another.')
    await expect(booked.or(taken)).toBeVisible()
    return (await booked.isVisible()) ? 'booked' : 'taken'
  }
  const results = await Promise.all(pages.map(outcome))
  expect(results.sort()).toEqual(['booked', 'taken'])
  for (const page of pages) await page.context().close()
})

test('the Sunday plan: a month of Sundays, one at a time on a phone, and a warning of a double assignment', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const wardName = unique('Plan Ward ')
  const ward = await createWard(admin, wardName, null, 600)
  const person = await createUser(request, admin, unique('Paula'), 'President')
  const date = '2027-03-14'
  await admin.req('PUT', '/api/sunday-plan/assignments', {
    date,
    assignments: [{ user_id: person.id, kind: 'ward_visit', ward_id: ward.id }],
  })

  const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  await page.goto('/sundays?year=2027&month=3')
  await expect(page.getByRole('heading', { name: 'Sunday plan' })).toBeVisible()
  await expect(page.locator('.sunday-card')).toHaveCount(4)
  const card = page.getByRole('region', { name: /March 14/ })
  await expect(card).toContainText(`visits ${wardName}`)

  // The same person at stake conference at the same hour.
  await card.getByRole('button', { name: /Edit the assignments/ }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: 'Add an assignment' }).click()
  const row = dialog.getByRole('group', { name: 'Assignment 2' })
  await row.getByLabel('Person').selectOption({ label: `${person.fname} ${person.lname}` })
  await row.getByLabel('Assignment', { exact: true }).selectOption('stake_conference')
  await row.getByLabel('Session').fill('General session')
  await row.getByLabel('Start time').fill('10:00')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()
  await expect(card.getByRole('alert')).toContainText(`${person.fname} ${person.lname} is in two places at once.`)
  await expectAccessible(page, 'Sunday plan')

  // A phone shows one Sunday at a time.
  await page.setViewportSize(PHONE)
  await expect(page.locator('.sunday-card')).toHaveCount(1)
  await page.getByRole('button', { name: 'Next Sunday' }).click()
  await expect(page.getByText('Sunday 2 of 4')).toBeVisible()
  await expect(page.locator('.sunday-card')).toHaveCount(1)
  await expect(page.getByRole('region', { name: /March 14/ }).getByRole('alert')).toBeVisible()
  await page.context().close()
})

test('the interviews page: weekly times saved, a booking link made for a free interview', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const manager = await createUser(request, admin, unique('Mona'), 'Manager')
  await admin.req('PUT', `/api/users/${manager.id}/permissions`, { permissions: ['proposals.manage'] })
  const page = await signInPage(browser, manager)
  await page.goto('/interviews')
  await expect(page.getByRole('heading', { name: 'Interviews', level: 1 })).toBeVisible()
  await page.getByRole('button', { name: 'Add a weekly time' }).click()
  const row = page.getByRole('group', { name: 'Time 1' })
  await row.getByLabel('Day').selectOption({ label: 'Wednesday' })
  await page.getByLabel('Where you hold interviews').fill('https://meet.example.org/mona')
  await page.getByRole('button', { name: 'Save my times' }).click()
  await expect(page.getByText('Your interview times are saved.')).toBeVisible()
  const saved = await new Api(request, manager.email, manager.password).req('GET', '/api/appointments/availability')
  expect(saved.weekly).toEqual([{ weekday: 3, start_minute: 18 * 60, end_minute: 20 * 60 }])
  expect(saved.place).toBe('https://meet.example.org/mona')

  await page.getByLabel("Person's name").fill('Walter Walk-in')
  await page.getByRole('button', { name: 'Make the link' }).click()
  await expect(page.getByLabel('Booking link', { exact: true })).toHaveValue(/\/booking#[A-Za-z0-9_-]{43}$/)
  await expectAccessible(page, 'interviews page')
  await page.context().close()
})

test('a proposal’s interview: a booking link from the proposal page; the booking sets the interview’s time', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const ivan = await interviewer(request, admin)
  const ward = await createWard(admin, unique('Booking ward '))
  const proposal = await admin.req('POST', '/api/calling-kanban/proposals', {
    fname: unique('Rhea'),
    lname: 'Booker',
    proposed_calling: 'Ward clerk',
    ward_id: ward.id,
    is_release: true,
  })
  try {
    // S10: the interviewer must see the proposal.
    await admin.req('PUT', `/api/users/${ivan.id}/permissions`, { permissions: ['proposals.view'] })
    await admin.req('POST', `/api/calling-kanban/proposals/${proposal.id}/interview?interviewer_id=${ivan.id}`)
    const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
    await page.goto(`/proposals/${proposal.id}`)
    // "Schedule interview" offers both ways; the link is the second.
    await page.getByLabel('Send the member a booking link').check()
    const form = page.getByRole('form', { name: 'Send a booking link' })
    await expect(form).toContainText(`${proposal.fname} Booker chooses one of ${ivan.fname} Interviewer’s free times`)
    await form.getByLabel('Length').selectOption('45')
    await form.getByRole('button', { name: 'Make the link' }).click()
    const link = form.getByLabel('Booking link', { exact: true })
    await expect(link).toHaveValue(/\/booking#[A-Za-z0-9_-]{43}$/)
    await expectAccessible(page, 'proposal page with a booking link')

    // The person books through it; the proposal's interview takes the time.
    const booking = await phonePage(browser, await link.inputValue())
    await expect(booking.getByText(new RegExp(`${proposal.fname} Booker, choose a time`))).toBeVisible()
    await booking.locator('.booking-slot').first().click()
    await booking.getByRole('button', { name: /^Book / }).click()
    await expect(booking.getByRole('heading', { name: 'Your interview is booked', level: 1 })).toBeVisible()
    const interview = await admin.req('GET', `/api/calling-kanban/proposals/${proposal.id}/interview`)
    expect(interview.interviewer_id).toBe(ivan.id)
    expect(interview.scheduled_for).not.toBeNull()
    await booking.context().close()
    await page.context().close()
  } finally {
    await admin.req('DELETE', `/api/calling-kanban/proposals/${proposal.id}`)
    await admin.req('DELETE', `/api/wards/${ward.id}`)
  }
})
