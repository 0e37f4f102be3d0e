// Helpers of the contention tests (imported by *.test.ts files only).
import assert from 'node:assert/strict'
import type { LightMyRequestResponse } from 'fastify'
import type { TestApp } from './harness.ts'
import { injectAs, unique, type TestUser } from './factories.ts'

type As = ReturnType<typeof injectAs>

export interface Labelled {
  label: string
  res: LightMyRequestResponse
}

/** Starts every request before awaiting any, so they interleave on the server. */
export async function burst(
  requests: { label: string; send: () => Promise<LightMyRequestResponse> }[],
): Promise<Labelled[]> {
  return Promise.all(requests.map(async ({ label, send }) => ({ label, res: await send() })))
}

/** No answer of the burst is a 5xx: contention is never the client's failure. */
export function assertNoServerError(answers: Labelled[]): void {
  const failed = answers.filter((a) => a.res.statusCode >= 500)
  assert.equal(
    failed.length,
    0,
    `${failed.length} of ${answers.length} answered 5xx: ${failed
      .slice(0, 5)
      .map((a) => `${a.label} → ${a.res.statusCode} ${a.res.body}`)
      .join('; ')}`,
  )
}

/** Every answer with this label prefix has this status. */
export function assertAll(answers: Labelled[], prefix: string, status: number): Labelled[] {
  const chosen = answers.filter((a) => a.label.startsWith(prefix))
  assert.ok(chosen.length > 0, `no request labelled ${prefix}`)
  for (const a of chosen) assert.equal(a.res.statusCode, status, `${a.label}: ${a.res.body}`)
  return chosen
}

/** POST /auth/login as the user, answered as it is (factories' login insists on 200). */
export const loginRequest = (t: TestApp, user: TestUser) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username: user.email, password: user.password }).toString(),
  })

/** The body of PUT /users/{id} that renames the user (and keeps everything else). */
export const rename = (user: TestUser, fname: string) => ({ email: user.email, fname, lname: user.lname, active: true })

/** A user's first name as stored now. */
export async function storedFname(t: TestApp, id: number): Promise<string> {
  const row = await t.database.db.selectFrom('users').select('fname').where('id', '=', id).executeTakeFirstOrThrow()
  return row.fname
}

/** Creates a ward through the API (201), for setup. */
export async function postWard(as: As, bishopId?: number): Promise<number> {
  const res = await as('POST', '/api/wards/', {
    name: unique('Ward '),
    start_time: 600,
    ...(bishopId ? { bishop_id: bishopId } : {}),
  })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().id
}

/** Every slot of the calling is held by one user, each user once, each with one open history row. */
export async function assertFilledOnce(t: TestApp, callingId: number, slots: number): Promise<Map<number, number>> {
  const db = t.database.db
  const rows = await db
    .selectFrom('calling_slots')
    .select(['slot_id', 'user_id'])
    .where('calling_id', '=', callingId)
    .execute()
  assert.equal(rows.length, slots)
  const holders = new Map(rows.map((r) => [r.slot_id, r.user_id]))
  for (const [slot, holder] of holders) assert.notEqual(holder, null, `slot ${slot} is empty`)
  assert.equal(new Set(holders.values()).size, slots, 'a user holds two slots')
  const open = await db
    .selectFrom('calling_slot_history')
    .select(['slot_id', 'user_id'])
    .where('calling_id', '=', callingId)
    .where('to_at', 'is', null)
    .execute()
  assert.equal(open.length, slots, 'one open history row per filled slot')
  for (const h of open) assert.equal(holders.get(h.slot_id), h.user_id, `history of slot ${h.slot_id}`)
  return holders as Map<number, number>
}
