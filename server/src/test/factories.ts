import crypto from 'node:crypto'
import { PERMISSIONS, type Permission } from '@stake/contract'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { replaceDirectPermissions } from '../modules/users/permissions.repository.ts'
import { insertUser } from '../modules/users/users.repository.ts'
import type { TestApp } from './harness.ts'

export const unique = (prefix = 'x'): string => `${prefix}${crypto.randomBytes(5).toString('hex')}`

export interface TestUser {
  id: number
  email: string
  password: string
  fname: string
  lname: string
}

/** Inserts a user directly (flag cleared unless asked), with direct grants. */
export async function createUser(
  t: TestApp,
  options: {
    permissions?: Permission[]
    forcePasswordReset?: boolean
    active?: boolean
    fname?: string
    lname?: string
  } = {},
): Promise<TestUser> {
  const email = `${unique('user')}@example.org`
  const password = `pw-${unique()}-${unique()}`
  const fname = options.fname ?? unique('F')
  const lname = options.lname ?? unique('L')
  const row = await insertUser(t.database.db, {
    email,
    fname,
    lname,
    password_hash: await t.hasher.hash(password),
    force_password_reset: options.forcePasswordReset ?? false,
    now: t.clock.now().toISOString(),
  })
  if (options.permissions?.length) await replaceDirectPermissions(t.database.db, row.id, options.permissions)
  if (options.active === false) {
    await t.database.db.updateTable('users').set({ active: false }).where('id', '=', row.id).execute()
  }
  return { id: row.id, email, password, fname, lname }
}

export const ALL_PERMISSIONS: Permission[] = [...PERMISSIONS]

export const createAdmin = (t: TestApp) => createUser(t, { permissions: ALL_PERMISSIONS })

/** POST /api/auth/login with the form a browser sends (from `ip` when given): the response, whatever it is. */
export function loginRequest(t: TestApp, username: string, password: string, ip?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    ...(ip === undefined ? {} : { remoteAddress: ip }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username, password }).toString(),
  })
}

/** Signs in through HTTP; returns the access token and the refresh cookie. */
export async function login(t: TestApp, user: { email: string; password: string }) {
  const res = await loginRequest(t, user.email, user.password)
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`)
  const cookie = res.cookies.find((c) => c.name === 'refresh_token')
  return { token: res.json().access_token as string, refresh: cookie?.value ?? '' }
}

/** A user created with the given grants and signed in: `{user, token, as}`. */
export async function signedIn(t: TestApp, options: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t, options)
  const { token, refresh } = await login(t, user)
  return { user, token, refresh, as: injectAs(t, token) }
}

/** `as(method, url, body?)` → the response, with the bearer token set. */
export function injectAs(t: TestApp, token: string | null) {
  return (method: InjectOptions['method'], url: string, payload?: unknown): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method,
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    })
}

/** Seats a user in a system calling's slot directly (setup for other domains' tests). */
export async function seat(t: TestApp, callingKey: string, userId: number, slotId?: number): Promise<number> {
  const db = t.database.db
  const calling = await db.selectFrom('callings').select('id').where('key', '=', callingKey).executeTakeFirstOrThrow()
  let query = db
    .selectFrom('calling_slots')
    .select('slot_id')
    .where('calling_id', '=', calling.id)
    .where('user_id', 'is', null)
    .orderBy('slot_id')
  if (slotId !== undefined) query = query.where('slot_id', '=', slotId)
  const slot = await query.executeTakeFirstOrThrow()
  await db
    .updateTable('calling_slots')
    .set({ user_id: userId, filled_at: t.clock.now().toISOString() })
    .where('calling_id', '=', calling.id)
    .where('slot_id', '=', slot.slot_id)
    .execute()
  return slot.slot_id
}
