import { expect, test } from '@playwright/test'
import { adminApi, ADMIN_EMAIL, ADMIN_PASSWORD, createUser, signInPage, unique } from './api'

/**
 * S20 (docs/SECURITY.md): what a booking link does is in the audit log, its
 * actor named as "the booking link" in the reader's language; the offer names
 * who sent it.
 */
const EVERY_DAY = Array.from({ length: 7 }, (_, weekday) => ({ weekday, start_minute: 7 * 60, end_minute: 22 * 60 }))

test('the audit page names the booking link as the actor of a booking, in English and Spanish', async ({
  browser,
  request,
}) => {
  const admin = await adminApi(request)
  const ivan = await createUser(request, admin, unique('Ivan'), 'Interviewer')
  await admin.req('PUT', `/api/appointments/availability?user_id=${ivan.id}`, { weekly: EVERY_DAY, exceptions: [] })
  const person = unique('Maria')
  const offer = await admin.req('POST', '/api/appointments/offers', {
    kind: 'temple_recommend',
    name: person,
    interviewer_id: ivan.id,
    duration_minutes: 30,
  })
  const token = (offer.url as string).split('#')[1]!
  const page0 = await (await request.get(`/api/appointments/book/${token}`)).json()
  const booked = await request.post(`/api/appointments/book/${token}`, {
    data: { starts_at: page0.slots[0].starts_at },
  })
  expect(booked.status()).toBe(201)

  const page = await signInPage(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  await page.goto('/manage/audit')
  await page.getByLabel('What').selectOption({ label: 'All: Appointments' })
  const list = page.getByRole('list', { name: 'Audit log' })
  await expect(
    list.getByText(
      new RegExp(`^The booking link booked the interview of ${person} with ${ivan.fname} Interviewer for `),
    ),
  ).toBeVisible()
  await expect(list.getByText(`Stake Administrator sent a booking link for the interview of ${person}`)).toBeVisible()
  await page.context().close()

  const reader = await createUser(request, admin, 'Lectora', unique('Citas'))
  await admin.req('PUT', `/api/users/${reader.id}/permissions`, { permissions: ['users.manage'] })
  await admin.req('PUT', `/api/users/${reader.id}`, {
    email: reader.email,
    fname: reader.fname,
    lname: reader.lname,
    language: 'es',
  })
  const context = await browser.newContext()
  const es = await context.newPage()
  await es.goto('/signin')
  await es.getByLabel(/Email|Correo/).fill(reader.email)
  await es.getByLabel(/Password|Contraseña/).fill(reader.password)
  await es.getByRole('button', { name: /Sign in|Iniciar sesión/ }).click()
  await es.getByRole('navigation').getByRole('link', { name: 'Auditoría' }).click()
  await es.getByLabel('Qué').selectOption({ label: 'Todo: Citas' })
  await expect(
    es.getByText(new RegExp(`^El enlace de reserva reservó la entrevista de ${person} con ${ivan.fname} Interviewer`)),
  ).toBeVisible()
  await context.close()
})
