import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { expectAccessible } from './axe'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, createUser, createWard, signInPage, unique, type Api } from './api'

/**
 * Dates and times in the stake's zone (docs/api-reference.md §18): a member
 * whose browser keeps another zone still books in the stake's, named on the
 * page; once booked, the page says so, with the time, the interviewer's
 * place and a calendar file to add. The Sunday plan opens on the coming
 * Sunday and titles its editor with the day as the cards show it.
 */
const PHONE = { width: 390, height: 844 }
const EVERY_DAY = Array.from({ length: 7 }, (_, weekday) => ({ weekday, start_minute: 7 * 60, end_minute: 22 * 60 }))
const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1' ? ['..', 'docs', 'screenshots'] : ['..', 'test-results', 'screenshots']
const shoot = (page: Page, name: string) =>
  page.screenshot({ path: join(test.info().config.rootDir, ...SHOTS, `${name}.png`) })

const plain = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim()

/** The stake's time zone, and another one for the browser (never the same). */
async function zones(admin: Api): Promise<{ zone: string; elsewhere: string }> {
  const zone = (await admin.req('GET', '/api/stake')).timezone as string
  return { zone, elsewhere: zone === 'Pacific/Kiritimati' ? 'America/Denver' : 'Pacific/Kiritimati' }
}

test('a booking from a browser in another time zone shows the stake’s zone, then the time, the place and a calendar file', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const { zone, elsewhere } = await zones(admin)
  const ivan = await createUser(request, admin, unique('Ivan'), 'Interviewer')
  await admin.req('PUT', `/api/appointments/availability?user_id=${ivan.id}`, {
    weekly: EVERY_DAY,
    exceptions: [],
    place: 'Stake offices, room 2',
  })
  const { url } = await admin.req('POST', '/api/appointments/offers', {
    kind: 'temple_recommend',
    name: 'Tess Traveller',
    interviewer_id: ivan.id,
    duration_minutes: 30,
  })

  const context = await browser.newContext({ viewport: PHONE, timezoneId: elsewhere, acceptDownloads: true })
  const page = await context.newPage()
  expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(elsewhere)
  await page.goto(url)
  await expect(page.getByRole('heading', { name: 'Book your interview' })).toBeVisible()
  const city = zone.split('/').pop()!.replace(/_/g, ' ')
  await expect(page.getByText(/Times are in the stake's time zone: /)).toContainText(`(${city})`)

  // The first free time reads as the stake's clock, not the browser's.
  const token = url.split('#')[1]!
  const first = (await (await request.get(`/api/appointments/book/${token}`)).json()).slots[0].starts_at as string
  const stakeClock = new Intl.DateTimeFormat('en', { timeZone: zone, hour: 'numeric', minute: '2-digit' })
  const slot = page.locator('.booking-slot').first()
  expect(plain(await slot.textContent())).toBe(plain(stakeClock.format(new Date(first))))
  await slot.click()
  await page.getByRole('button', { name: /^Book / }).click()

  // Booked: the heading says so; when, where, add to calendar, change and cancel.
  await expect(page.getByRole('heading', { name: 'Your interview is booked', level: 1 })).toBeVisible()
  const booked = page.getByRole('region', { name: 'Your interview' })
  await expect(booked).toContainText('Stake offices, room 2')
  await expect(booked).toContainText(plain(stakeClock.format(new Date(first))))
  await expect(booked.getByRole('button', { name: 'Change time' })).toBeVisible()
  await expect(booked.getByRole('button', { name: 'Cancel interview' })).toBeVisible()
  await expect(page.getByText(/choose a time/i)).toHaveCount(0)
  await expectAccessible(page, 'booked page')
  await shoot(page, 'booking-phone')

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    booked.getByRole('link', { name: 'Add to calendar (.ics)' }).click(),
  ])
  expect(download.suggestedFilename()).toBe('interview.ics')
  const ics = (await readFile(await download.path())).toString().replace(/\r\n[ \t]/g, '')
  expect(ics).toContain('BEGIN:VEVENT')
  expect(ics).toMatch(/LOCATION:Stake offices\\, room 2/)
  expect(ics).toContain(`DTSTART:${first.replace(/[-:]/g, '').replace(/\.\d+/, '')}`)
  await context.close()
})

/** What a `datetime-local` field shows for `iso` on the clocks of `zone`: "2030-03-05T08:30". */
function wallTime(iso: string, zone: string): string {
  const clock = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  })
  const part = Object.fromEntries(clock.formatToParts(new Date(iso)).map((p) => [p.type, p.value]))
  return `${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}`
}

test('an interview’s date and time, set from a browser in another time zone, reads and saves the stake’s clock', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const { zone, elsewhere } = await zones(admin)
  const ward = await createWard(admin, unique('Harbor '))
  const ines = await createUser(request, admin, 'Ines', unique('Zone'))
  await admin.req('PUT', `/api/users/${ines.id}/permissions`, { permissions: ['proposals.view'] })
  const release = await admin.req('POST', '/api/calling-kanban/proposals', {
    fname: unique('Quinn'),
    lname: 'Harbor',
    spouse_name: null,
    proposed_calling: 'Ward Librarian',
    ward_id: ward.id,
    is_release: true,
  })
  const at = '2030-03-05T15:30:00.000Z'
  await admin.req(
    'POST',
    `/api/calling-kanban/proposals/${release.id}/interview?interviewer_id=${ines.id}&scheduled_for=${at}`,
  )

  const context = await browser.newContext({ timezoneId: elsewhere })
  const page = await context.newPage()
  expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(elsewhere)
  await page.goto(`/signin?next=${encodeURIComponent(`/proposals/${release.id}`)}`)
  await page.getByLabel('Email').fill(ADMIN_EMAIL)
  await page.getByLabel('Password').fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()

  // The field and the details beside it read the stake's clock, not the browser's.
  const field = page.getByLabel('Scheduled for')
  expect(wallTime(at, zone), 'the two zones read different clocks').not.toBe(wallTime(at, elsewhere))
  await expect(field).toHaveValue(wallTime(at, zone), { timeout: 30_000 })
  const shown = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: zone })
  await expect(page.locator('#interview-h + dl')).toContainText(plain(shown.format(new Date(at))))

  // A time typed in keeps the stake's clock too, so the saved instant is 10:30 where the stake is.
  await field.fill('2030-05-04T10:30')
  await page.getByRole('button', { name: 'Update interview' }).click()
  await expect(page.getByText('Interview scheduled.')).toBeVisible()
  const saved = (await admin.req('GET', `/api/calling-kanban/proposals/${release.id}/interview`))
    .scheduled_for as string
  expect(wallTime(saved, zone)).toBe('2030-05-04T10:30')
  await page.reload()
  await expect(page.getByLabel('Scheduled for')).toHaveValue('2030-05-04T10:30', { timeout: 30_000 })
  await context.close()
})

/** The coming Sunday (today when it is Sunday) in `zone`, as YYYY-MM-DD. */
function comingSunday(zone: string): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })
  const day = new Date(`${today.format(new Date())}T12:00:00Z`)
  day.setUTCDate(day.getUTCDate() + ((7 - day.getUTCDay()) % 7))
  return day.toISOString().slice(0, 10)
}

test('the Sunday plan opens on the coming Sunday of the stake’s zone; its editor is titled with the day', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const zone = (await admin.req('GET', '/api/stake')).timezone as string
  const sunday = new Date(`${comingSunday(zone)}T12:00:00Z`)
  const day = new Intl.DateTimeFormat('en', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' })
  const month = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' })

  const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  await page.goto('/sundays')
  await expect(page.getByRole('heading', { name: month.format(sunday), level: 2 })).toBeVisible()
  await shoot(page, 'sundays-desktop')

  // A phone: the coming Sunday itself, with the navigation on one row each.
  await page.setViewportSize(PHONE)
  const card = page.locator('.sunday-card')
  await expect(card).toHaveCount(1)
  await expect(card.getByRole('heading', { level: 3 })).toHaveText(day.format(sunday))
  const rows = await page.evaluate(() =>
    [...document.querySelectorAll('.sunday-nav')].map((n) => n.getBoundingClientRect().height),
  )
  expect(Math.max(...rows), 'the month and Sunday buttons keep to one row on a phone').toBeLessThan(70)
  await expectAccessible(page, 'Sunday plan on a phone')
  await shoot(page, 'sundays-phone')

  await card.getByRole('button', { name: /Edit the assignments of/ }).click()
  const full = new Intl.DateTimeFormat('en', { dateStyle: 'full', timeZone: 'UTC' })
  await expect(page.getByRole('dialog').getByRole('heading', { level: 2 })).toHaveText(
    `Assignments on ${full.format(sunday)}`,
  )
  await page.context().close()
})
