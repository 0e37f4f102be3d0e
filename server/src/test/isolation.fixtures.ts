import crypto from 'node:crypto'
import assert from 'node:assert/strict'
import type { LightMyRequestResponse } from 'fastify'
import type { ProposalBody } from '@stake/contract'
import { acrossStakes, inStake } from '../db/stake-scope.ts'
import { STAKE_TABLES } from '../modules/tables.ts'
import { ALL_PERMISSIONS, login, injectAs, signedIn, unique, type TestUser } from './factories.ts'
import type { TestApp } from './harness.ts'
import { proposalBody } from './proposals.fixtures.ts'
import { createUserIn, otherStake } from './stakes.fixtures.ts'

/**
 * Two stakes for the isolation matrix (security/s16-stake-isolation.test.ts):
 * stake A (the default stake) and stake B, with the same ward and calling
 * names. Everything of B that a route can address is made through B's own
 * API as B's administrator, with a marker in every name and text of B's
 * people, proposals, comments and topics, so a leak shows in any answer.
 */

export const MARKER = 'Zqxb'
/** The speaking year where B has an override and a topic and A has nothing. */
export const B_YEAR = 2031
export const B_MONTH = 5

const WARD_NAMES = ['Maple Ward', 'Oak Ward'] as const
const CALLING_NAME = 'Choir Director'

type As = ReturnType<typeof injectAs>

/** What `ok` gives back by default: a created or read object. */
export type Answer = { id: number } & Record<string, unknown>

/** The answer's JSON (or text) after insisting on a 2xx (or on `status`). */
export async function ok<T = Answer>(res: Promise<LightMyRequestResponse>, status?: number): Promise<T> {
  const r = await res
  if (status === undefined) assert.ok(r.statusCode >= 200 && r.statusCode < 300, `${r.statusCode} ${r.body}`)
  else assert.equal(r.statusCode, status, r.body)
  return (r.body ? (r.headers['content-type']?.toString().includes('json') ? r.json() : r.body) : null) as T
}

const PROPOSALS = '/api/calling-kanban/proposals'

/** The id of a system calling (by key) in the caller's stake, through the API. */
async function callingByKey(as: As, key: string): Promise<number> {
  const list = (await ok(as('GET', '/api/callings?limit=200'))) as { id: number; key: string | null }[]
  const found = list.find((c) => c.key === key)
  assert.ok(found, `no ${key} calling`)
  return found.id
}

async function advanceTo(as: As, id: number, target: string): Promise<void> {
  let stage = ((await ok(as('GET', `${PROPOSALS}/${id}`))) as { stage: string }).stage
  while (stage !== target) {
    stage = ((await ok(as('POST', `${PROPOSALS}/${id}/advance?from_stage=${stage}`))) as { stage: string }).stage
  }
}

export interface StakeA {
  admin: Awaited<ReturnType<typeof signedIn>>
  /** A's high councilor (seat 1), so A's calendar and feed have rows. */
  hc: Awaited<ReturnType<typeof signedIn>>
  /** A signed-in user of A with one permission (proposals.submit). */
  plain: Awaited<ReturnType<typeof signedIn>>
  wards: number[]
  calling: number
  proposal: number
  comment: number
  /** A's proposals at `interview` and at `sustain` (for references to B's objects). */
  atInterview: number
  atSustain: number
}

/** Stake A, the default stake: its administrator and a few rows with B's names. */
export async function seedStakeA(t: TestApp): Promise<StakeA> {
  const admin = await signedIn(t, { permissions: ALL_PERMISSIONS, fname: 'Alma', lname: 'Admin' })
  const plain = await signedIn(t, { permissions: ['proposals.submit'], fname: 'Abel', lname: 'Plain' })
  const wards: number[] = []
  for (const name of WARD_NAMES)
    wards.push((await ok(admin.as('POST', '/api/wards/', { name, start_time: 540 }), 201)).id)
  const hc = await signedIn(t, { fname: 'Hugo', lname: 'Councilor' })
  await ok(
    admin.as('PUT', `/api/callings/${await callingByKey(admin.as, 'high_councilor')}/1`, { user_id: hc.user.id }),
  )
  const calling = (await ok(admin.as('POST', '/api/callings/', { name: CALLING_NAME, max_slots: 2 }), 201)).id
  await ok(admin.as('PUT', `/api/callings/${calling}/1`, { user_id: plain.user.id }))
  const propose = async (fname: string) =>
    (await ok(admin.as('POST', PROPOSALS, proposalBody(wards[0]!, { fname })), 201)).id as number
  const proposal = await propose('Ada')
  const comment = (
    await ok(admin.as('POST', `${PROPOSALS}/${proposal}/comments`, { comment_text: 'A comment of A' }), 201)
  ).id as number
  const atInterview = await propose('Ike')
  await advanceTo(admin.as, atInterview, 'interview')
  const atSustain = await propose('Sue')
  await advanceTo(admin.as, atSustain, 'sustain')
  await ok(admin.as('PUT', `/api/speaking/topics/2026/4`, { topic: 'Faith', reference: null }))
  return { admin, hc, plain, wards, calling, proposal, comment, atInterview, atSustain }
}

export interface StakeB {
  stakeId: number
  admin: TestUser
  as: As
  token: string
  users: { president: TestUser; counselor: TestUser; hc: TestUser; member: TestUser }
  wards: number[]
  calling: number
  /** The custom calling's filled slot. */
  slot: number
  proposals: {
    sp: number
    hc: number
    interview: number
    sustain: number
    setApart: number
    record: number
    declined: number
    /** An ordination at `ordain` (docs/api-reference.md §18); absent when seeded without one. */
    ordain?: number
  }
  comment: number
  webhook: number
  notification: number
  session: number
  /** A push device of B's administrator. */
  pushDevice: number
  /** `{token}.ics` of B's administrator's calendar feed. */
  feedFile: string
  /** An LCR import preview of B's administrator (docs/api-reference.md §15). */
  importPreview: number
  /** A passkey of B's administrator. */
  passkey: number
}

/** A user of B with the marker in name and email: made directly (to know the password), then renamed through B's API. */
async function markedUser(t: TestApp, stakeId: number, as: As, first: string): Promise<TestUser> {
  const user = await createUserIn(t, stakeId)
  const email = `${MARKER.toLowerCase()}-${unique()}@example.org`
  const fname = `${MARKER}${first}`
  const lname = `${MARKER}son`
  await ok(as('PUT', `/api/users/${user.id}`, { email, fname, lname }))
  return { ...user, email, fname, lname }
}

/** Stake B with everything a route can address. */
export async function seedStakeB(t: TestApp): Promise<StakeB> {
  return seedStake(t, await otherStake(t, `${MARKER} Stake`))
}

/**
 * Fills a stake (its administrator signed in) with everything a route can
 * address, through its administrator's HTTP API; the migration test fills
 * the default stake with it.
 */
export async function seedStake(
  t: TestApp,
  b: { stakeId: number; admin: TestUser; token: string; as: As },
  /** Without an ordination: for a database migrated before ordinations existed (migrate.stakes.test.ts). */
  options: { ordination?: boolean } = {},
): Promise<StakeB> {
  const as = b.as
  // The webhook first, so B's later events are queued for it.
  const webhook = (
    await ok(
      as('POST', '/api/webhooks', {
        url: `https://${MARKER.toLowerCase()}.example.org/hook`,
        events: ['proposal_created', 'stage_changed', 'declined', 'interview_assigned', 'comment'],
      }),
      201,
    )
  ).id as number

  const users = {
    president: await markedUser(t, b.stakeId, as, 'President'),
    counselor: await markedUser(t, b.stakeId, as, 'Counselor'),
    hc: await markedUser(t, b.stakeId, as, 'Councilor'),
    member: await markedUser(t, b.stakeId, as, 'Member'),
  }
  await ok(as('PUT', `/api/users/${users.member.id}/permissions`, { permissions: ['proposals.view'] }))
  await ok(as('PUT', `/api/callings/${await callingByKey(as, 'stake_president')}/1`, { user_id: users.president.id }))
  await ok(
    as('PUT', `/api/callings/${await callingByKey(as, 'stake_first_counselor')}/1`, { user_id: users.counselor.id }),
  )
  await ok(as('PUT', `/api/callings/${await callingByKey(as, 'high_councilor')}/1`, { user_id: users.hc.id }))

  const wards: number[] = []
  for (const [i, name] of WARD_NAMES.entries()) {
    const body = { name, start_time: 600, ...(i === 0 ? { bishop_id: users.member.id } : {}) }
    wards.push((await ok(as('POST', '/api/wards/', body), 201)).id)
  }
  const calling = (await ok(as('POST', '/api/callings/', { name: CALLING_NAME, max_slots: 2 }), 201)).id as number
  await ok(as('PUT', `/api/callings/${calling}/1`, { user_id: users.member.id }))
  await ok(as('PUT', `/api/callings/${calling}/permissions`, { permissions: ['proposals.view'] }))

  const propose = async (stage: string, kind: Partial<ProposalBody> = {}) => {
    const p = await ok(
      as('POST', '/api/calling-kanban/proposals', proposalBody(wards[0]!, { fname: `${MARKER}${stage}`, ...kind })),
      201,
    )
    if (stage !== 'sp_approval') await advanceTo(as, p.id, stage === 'declined' ? 'hc_approval' : stage)
    return p.id as number
  }
  const proposals = {
    sp: await propose('sp_approval'),
    hc: await propose('hc_approval'),
    interview: await propose('interview'),
    sustain: await propose('sustain'),
    setApart: await propose('set_apart'),
    record: await propose('record'),
    declined: await propose('declined'),
    ...(options.ordination === false
      ? {}
      : { ordain: await propose('ordain', { kind: 'ordination', office: 'elder' }) }),
  }
  await ok(as('POST', `${PROPOSALS}/${proposals.declined}/decline`, { reason: `${MARKER} not now` }))
  // Votes of B's presidency and high council.
  const president = injectAs(t, (await login(t, users.president)).token)
  await ok(president('POST', `${PROPOSALS}/${proposals.sp}/approvals?approved=true`), 201)
  const hc = injectAs(t, (await login(t, users.hc)).token)
  await ok(hc('POST', `${PROPOSALS}/${proposals.hc}/approvals?approved=true`), 201)
  await ok(as('POST', `${PROPOSALS}/${proposals.interview}/interview?interviewer_id=${users.hc.id}`))
  const comment = (
    await ok(as('POST', `${PROPOSALS}/${proposals.sp}/comments`, { comment_text: `${MARKER} a comment of B` }), 201)
  ).id as number
  await ok(
    hc('POST', `${PROPOSALS}/${proposals.hc}/comments`, { comment_text: `${MARKER} the councilor's comment` }),
    201,
  )
  await ok(as('POST', `${PROPOSALS}/${proposals.sustain}/presented`, { ward_id: wards[0] }))

  await ok(
    as('PUT', '/api/speaking/calendar/override', {
      high_councilor_id: users.hc.id,
      year: B_YEAR,
      month: B_MONTH,
      ward_id: wards[1],
    }),
  )
  await ok(as('PUT', `/api/speaking/topics/${B_YEAR}/${B_MONTH}`, { topic: `${MARKER} topic`, reference: null }))
  // And in the months A's calendar and feed show (the test clock is in March 2026).
  await ok(as('PUT', `/api/speaking/topics/2026/4`, { topic: `${MARKER} April`, reference: `${MARKER} ref` }))
  await ok(
    as('PUT', '/api/speaking/calendar/override', {
      high_councilor_id: users.hc.id,
      year: 2026,
      month: 4,
      ward_id: wards[1],
    }),
  )
  // docs/api-reference.md §18: B's first seat oversees B's first ward and an organization.
  await ok(
    as('PUT', '/api/stewardships', {
      seats: [{ slot_id: 1, ward_ids: [wards[0]], organizations: [`${MARKER} Stake Primary`] }],
    }),
  )
  // docs/api-reference.md §18: B's administrator publishes interview times and where he holds them.
  await ok(
    as('PUT', '/api/appointments/availability', {
      weekly: [{ weekday: 2, start_minute: 18 * 60, end_minute: 20 * 60 }],
      exceptions: [],
      place: `${MARKER} stake offices`,
    }),
  )
  const feed = (await ok(as('POST', '/api/speaking/feed'))) as { url: string }
  const feedFile = new URL(feed.url).pathname.split('/').pop()!

  const session = ((await ok(as('GET', '/api/auth/sessions'))) as { id: number }[])[0]!.id
  const report = await t.app.inject({
    method: 'POST',
    url: `/api/imports?ward_id=${wards[0]}`,
    headers: { authorization: `Bearer ${b.token}`, 'content-type': 'text/csv' },
    payload: `Name,Phone Number,E-mail\n"${MARKER}, Imported",555-0100,\n`,
  })
  assert.equal(report.statusCode, 201, report.body)
  const importPreview = (report.json() as { id: number }).id
  const pushDevice = (
    await ok(
      as('POST', '/api/notifications/push/devices', {
        endpoint: `https://${MARKER.toLowerCase()}.example.org/push/${unique()}`,
        keys: {
          p256dh: crypto.createECDH('prime256v1').generateKeys().toString('base64url'),
          auth: crypto.randomBytes(16).toString('base64url'),
        },
        label: `${MARKER} phone`,
      }),
      201,
    )
  ).id as number
  const notification = await inStake(b.stakeId, () =>
    t.database.db.selectFrom('notifications').select('id').orderBy('id').executeTakeFirst(),
  )
  assert.ok(notification, "B's writes notified someone of B")
  const passkey = await inStake(b.stakeId, () =>
    t.database.db
      .insertInto('passkeys')
      .values({
        user_id: b.admin.id,
        credential_id: `b-credential-${unique()}`,
        public_key: 'AA',
        counter: 0,
        transports: null,
        name: `${MARKER} passkey`,
        created_at: t.clock.iso(),
      })
      .returning('id')
      .executeTakeFirstOrThrow(),
  )
  return {
    stakeId: b.stakeId,
    admin: b.admin,
    as,
    token: b.token,
    users,
    wards,
    calling,
    slot: 1,
    proposals,
    comment,
    webhook,
    notification: notification.id,
    session,
    pushDevice,
    feedFile,
    importPreview,
    passkey: passkey.id,
  }
}

/** Every row of one stake, table by table, in a stable order (read across stakes, past both walls). */
export async function stakeRows(t: TestApp, stakeId: number): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {}
  for (const table of [...STAKE_TABLES].sort()) {
    const list = await acrossStakes(() =>
      t.database.db
        .selectFrom(table as 'users')
        .selectAll()
        .where('stake_id', '=', stakeId)
        .execute(),
    )
    rows[table] = list.map((r) => JSON.stringify(r)).sort()
  }
  return rows
}

/** B's ids per table (tables with an `id` column). */
export function idsOf(rows: Record<string, unknown[]>): Record<string, Set<number>> {
  const ids: Record<string, Set<number>> = {}
  for (const [table, list] of Object.entries(rows)) {
    const set = new Set<number>()
    for (const json of list) {
      const id = (JSON.parse(json as string) as { id?: unknown }).id
      if (typeof id === 'number') set.add(id)
    }
    if (set.size) ids[table] = set
  }
  return ids
}
