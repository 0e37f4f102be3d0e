import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test'

/**
 * API helpers for setting up data the test is not about. Everything goes
 * through the public HTTP API, exactly as an outside client would use it.
 */

export const ADMIN_EMAIL = 'admin@example.com'
const ADMIN_INITIAL_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? 'Initial-Admin-Pass-2024'
export const ADMIN_PASSWORD = 'Admin-Chosen-Pass-9137'

let seq = 0
export function unique(prefix: string): string {
  seq += 1
  return `${prefix}${Date.now().toString(36)}${seq}${Math.floor(Math.random() * 1000)}`
}

export interface Account {
  id: number
  email: string
  password: string
  fname: string
  lname: string
}

async function parse(res: Awaited<ReturnType<APIRequestContext['get']>>, what: string) {
  const text = await res.text()
  if (!res.ok()) throw new Error(`${what}: ${res.status()} ${text}`)
  return text ? JSON.parse(text) : null
}

export async function login(request: APIRequestContext, email: string, password: string): Promise<string> {
  const res = await request.post('/api/auth/login', { form: { username: email, password } })
  const body = await parse(res, `login ${email}`)
  return body.access_token as string
}

/**
 * An API session that logs in again when its short-lived token expires
 * (the e2e server issues 5-second access tokens).
 */
export class Api {
  private token: string | null = null
  constructor(
    private request: APIRequestContext,
    private email: string,
    private password: string,
  ) {}

  private async call(
    method: string,
    url: string,
    data?: unknown,
    retry = true,
  ): Promise<{ status: number; body: any; headers: Record<string, string> }> {
    if (!this.token) this.token = await login(this.request, this.email, this.password)
    const res = await this.request.fetch(url, {
      method,
      data: data === undefined ? undefined : data,
      headers: { Authorization: `Bearer ${this.token}` },
    })
    if (res.status() === 401 && retry) {
      this.token = null
      return this.call(method, url, data, false)
    }
    const text = await res.text()
    return { status: res.status(), body: text ? JSON.parse(text) : null, headers: res.headers() }
  }

  async req(method: string, url: string, data?: unknown): Promise<any> {
    const r = await this.call(method, url, data)
    if (r.status >= 400) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(r.body)}`)
    return r.body
  }

  raw(method: string, url: string, data?: unknown) {
    return this.call(method, url, data)
  }
}

let adminReady = false

/** The bootstrap administrator, with its forced first password change done. */
export async function adminApi(request: APIRequestContext): Promise<Api> {
  if (!adminReady) {
    const tryNew = await request.post('/api/auth/login', { form: { username: ADMIN_EMAIL, password: ADMIN_PASSWORD } })
    if (!tryNew.ok()) {
      const token = await login(request, ADMIN_EMAIL, ADMIN_INITIAL_PASSWORD)
      const me = await parse(await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${token}` } }), 'me')
      await parse(
        await request.patch(`/api/users/${me.id}/password`, {
          headers: { Authorization: `Bearer ${token}` },
          data: { old_password: ADMIN_INITIAL_PASSWORD, new_password: ADMIN_PASSWORD },
        }),
        'admin password change',
      )
    }
    adminReady = true
  }
  return new Api(request, ADMIN_EMAIL, ADMIN_PASSWORD)
}

/** A user created by the administrator, still carrying the temporary password. */
export async function createUserRaw(
  admin: Api,
  fname: string,
  lname = 'Tester',
): Promise<Account & { temporary: true }> {
  const email = `${unique(fname.toLowerCase())}@example.com`
  const body = await admin.req('POST', '/api/users/', { email, fname, lname })
  expect(body.temporary_password, 'POST /users/ returns temporary_password once').toBeTruthy()
  return { id: body.id, email, password: body.temporary_password, fname, lname, temporary: true }
}

/** A user ready to use: created by the administrator, own password chosen. */
export async function createUser(
  request: APIRequestContext,
  admin: Api,
  fname: string,
  lname = 'Tester',
): Promise<Account> {
  const raw = await createUserRaw(admin, fname, lname)
  const password = `Pw-${unique('x')}-Long`
  const token = await login(request, raw.email, raw.password)
  await parse(
    await request.patch(`/api/users/${raw.id}/password`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { old_password: raw.password, new_password: password },
    }),
    'own password change',
  )
  return { id: raw.id, email: raw.email, password, fname, lname }
}

export async function callingByKey(admin: Api, key: string): Promise<any> {
  const list = await admin.req('GET', '/api/callings/?limit=200')
  const c = list.find((x: any) => x.key === key)
  if (!c) throw new Error(`no calling with key ${key}`)
  return admin.req('GET', `/api/callings/${c.id}`)
}

/** Puts the user into the first vacant seat of a system calling; returns the seat number. */
export async function seat(admin: Api, key: string, userId: number): Promise<number> {
  const c = await callingByKey(admin, key)
  const free = c.slots.find((s: any) => !s.filled)
  if (!free) throw new Error(`no vacant seat in ${key}`)
  await admin.req('PUT', `/api/callings/${c.id}/${free.slot_id}`, { user_id: userId })
  return free.slot_id
}

/** Seats the user in the calling's first seat, vacating it if needed; returns how to give it back. */
export async function takeSeat(admin: Api, key: string, userId: number): Promise<() => Promise<void>> {
  const calling = await callingByKey(admin, key)
  const slot = calling.slots[0]
  const before = slot.user_id ?? slot.user?.id ?? null
  if (before !== null) await admin.req('DELETE', `/api/callings/${calling.id}/${slot.slot_id}`)
  await admin.req('PUT', `/api/callings/${calling.id}/${slot.slot_id}`, { user_id: userId })
  return async () => {
    await admin.raw('DELETE', `/api/callings/${calling.id}/${slot.slot_id}`)
    if (before !== null) await admin.raw('PUT', `/api/callings/${calling.id}/${slot.slot_id}`, { user_id: before })
  }
}

export async function createWard(
  admin: Api,
  name: string,
  bishopId: number | null = null,
  startTime = 600,
): Promise<any> {
  return admin.req('POST', '/api/wards/', { name, start_time: startTime, bishop_id: bishopId })
}

/** Signs in through the UI in a fresh browser context (own cookie jar). */
export async function signInPage(browser: Browser, account: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto('/signin')
  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Password').fill(account.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Calling proposals' })).toBeVisible()
  return page
}

/**
 * Follows a link of the top navigation, through its "More" menu when the bar
 * had no room for it (what fits depends on the screen, the language and
 * whether "Needs me" shows).
 */
export async function navigateTo(page: Page, name: string, more = 'More'): Promise<void> {
  const nav = page.getByTestId('mainnav')
  const link = nav.getByRole('link', { name })
  const moreButton = nav.getByRole('button', { name: more })
  // Wait for the bar to render before asking which of the two it shows.
  await expect(link.or(moreButton).first()).toBeVisible()
  if (await link.isVisible()) return link.click()
  await moreButton.click()
  await page.getByRole('menuitem', { name }).click()
}
