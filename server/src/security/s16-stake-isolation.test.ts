import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { sql } from 'kysely'
import { inStake } from '../db/stake-scope.ts'
import { injectAs, unique } from '../test/factories.ts'
import { dialect, useTestApp, type AppWalls, type TestApp } from '../test/harness.ts'
import {
  B_MONTH,
  B_YEAR,
  MARKER,
  idsOf,
  ok,
  seedStakeA,
  seedStakeB,
  stakeRows,
  type StakeA,
  type StakeB,
} from '../test/isolation.fixtures.ts'
import { proposalBody } from '../test/proposals.fixtures.ts'

/**
 * S16, stakes are sealed (docs/api-reference.md §14): two stakes with the same
 * ward and calling names. Every route of the OpenAPI document is called by
 * stake A with stake B's ids and must answer exactly as for an id that does
 * not exist; no list, board, export, feed or count of A holds anything of B;
 * nothing A does changes a row of B. The routes come from the document, not
 * from a hand list: a route with a parameter this file does not know fails
 * with "add <method> <path> to the isolation matrix".
 *
 * On PostgreSQL the matrix runs three times: as the app runs (query filters
 * and row-level security), with the query filters alone (the app connected as
 * the superuser) and with row-level security alone (no query plugin).
 */

interface JsonSchema {
  type?: string | string[]
  anyOf?: JsonSchema[]
  enum?: unknown[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  minimum?: number
  minLength?: number
  minItems?: number
  items?: JsonSchema
}
interface Parameter {
  in: 'path' | 'query'
  name: string
  required?: boolean
}
interface Operation {
  operationId?: string
  parameters?: Parameter[]
  requestBody?: { content: Record<string, { schema: JsonSchema }> }
}
interface Route {
  method: string
  path: string
  key: string
  operationId: string
  pathParams: string[]
  queryParams: Parameter[]
  body: JsonSchema | null
}

function routesOf(t: TestApp): Route[] {
  const doc = t.app.swagger() as { paths: Record<string, Record<string, Operation>> }
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        key: `${method.toUpperCase()} ${path}`,
        operationId: op.operationId ?? `${method} ${path}`,
        pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: (op.parameters ?? []).filter((p) => p.in === 'query'),
        body: op.requestBody?.content['application/json']?.schema ?? null,
      })),
  )
}

const MISSING = 999999
/** A well-formed feed file name no one has. */
const MISSING_FEED = `${'A'.repeat(43)}.ics`

interface Seeds {
  a: StakeA
  b: StakeB
}
type Values = Record<string, string | number | boolean>

/** An id-like query parameter: it names a stake object. */
const isIdName = (name: string) => name.endsWith('_id') || name === 'submitter'

interface Entry {
  /** Path parameters: B's ids (for `scoped`, values where B has data and A has none). */
  params: (s: Seeds) => Values
  /** Query values that are not B's ids (a stage, a flag, A's own user). */
  query?: (s: Seeds) => Values
  /** Query values that are B's ids (999999 in the missing-id call). */
  bQuery?: (s: Seeds) => Values
  /** The path parameters of the missing-id call, when not 999999 everywhere. */
  missing?: (s: Seeds) => Values
  /** More calls: A's parent object with B's child (e.g. A's proposal, B's comment), and its missing twin. */
  mixed?: (s: Seeds) => { params: Values; missing: Values }[]
  /**
   * `scoped`: the parameters are not ids (a year, a month): the route answers
   * with A's own data, which must hold nothing of B (and A's writes there
   * leave B's rows alone: the snapshot at the end).
   */
  scoped?: true
  /**
   * `reference`: B's id names no object of the route's own but a reference
   * (a query's high councilor): it may be refused as invalid (422), exactly
   * as a missing id is.
   */
  reference?: true
}

const user: Entry = { params: ({ b }) => ({ id: b.users.member.id }) }
const calling: Entry = { params: ({ b }) => ({ calling_id: b.calling }) }
const slot: Entry = {
  // slot_id is a number within the calling, not an object of its own: B's calling with its filled slot.
  params: ({ b }) => ({ calling_id: b.calling, slot_id: b.slot }),
  missing: ({ b }) => ({ calling_id: MISSING, slot_id: b.slot }),
  // A's calling with a slot number only B's calling has (A's calling has 2 slots: 3 is B's nowhere either).
}
const ward: Entry = { params: ({ b }) => ({ ward_id: b.wards[0]! }) }
const webhook: Entry = { params: ({ b }) => ({ webhook_id: b.webhook }) }
const proposal = (which: keyof StakeB['proposals'], query?: (s: Seeds) => Values): Entry => ({
  params: ({ b }) => ({ proposal_id: b.proposals[which]! }),
  ...(query ? { query } : {}),
})
const year: Entry = { params: () => ({ year: B_YEAR }), scoped: true }
const month: Entry = { params: () => ({ year: B_YEAR, month: B_MONTH }), scoped: true }
const comment: Entry = {
  params: ({ b }) => ({ proposal_id: b.proposals.sp, comment_id: b.comment }),
  mixed: ({ a, b }) => [
    {
      params: { proposal_id: a.proposal, comment_id: b.comment },
      missing: { proposal_id: a.proposal, comment_id: MISSING },
    },
  ],
}

const P = '/api/calling-kanban/proposals/{proposal_id}'
const bookingLink: Entry = { params: () => ({ token: 'B'.repeat(43) }), missing: () => ({ token: 'A'.repeat(43) }) }

/** Every route with a parameter: which object of B (or which value) fills it. */
const MATRIX: Record<string, Entry> = {
  // A session id names one of the caller's own sessions: B's administrator's session must be as unknown as a missing one.
  'DELETE /api/auth/sessions/{id}': { params: ({ b }) => ({ id: b.session }) },
  'GET /api/users/{id}': user,
  'PUT /api/users/{id}': user,
  'PATCH /api/users/{id}/password': user,
  'GET /api/users/{id}/permissions': user,
  'PUT /api/users/{id}/permissions': user,
  'GET /api/callings/{calling_id}': calling,
  'PUT /api/callings/{calling_id}': calling,
  'DELETE /api/callings/{calling_id}': calling,
  'GET /api/callings/{calling_id}/history': calling,
  'GET /api/callings/{calling_id}/permissions': calling,
  'PUT /api/callings/{calling_id}/permissions': calling,
  'GET /api/callings/{calling_id}/{slot_id}': slot,
  'PUT /api/callings/{calling_id}/{slot_id}': slot,
  'DELETE /api/callings/{calling_id}/{slot_id}': slot,
  'GET /api/wards/{ward_id}': ward,
  'PUT /api/wards/{ward_id}': ward,
  'DELETE /api/wards/{ward_id}': ward,
  'GET /api/speaking/calendar/{year}': year,
  // Required query: B's high councilor in the month B has an override (A has none). B's councilor is
  // a reference that A's stake does not know: "not a current high councilor" (422), as for a missing user.
  'DELETE /api/speaking/calendar/override': {
    reference: true,
    params: () => ({}),
    query: () => ({ year: B_YEAR, month: B_MONTH }),
    bQuery: ({ b }) => ({ high_councilor_id: b.users.hc.id }),
  },
  'GET /api/speaking/topics/{year}': year,
  'PUT /api/speaking/topics/{year}/{month}': month,
  'DELETE /api/speaking/topics/{year}/{month}': month,
  // The file is a credential (the token), not an id: the address serves its owner's calendar to whoever holds
  // it (§13) and finds its owner's stake itself (tested below: A's feed holds A only, B's address serves B).
  // Here: a well-formed token nobody holds answers exactly as another one.
  'GET /api/speaking/feed/{file}': {
    params: () => ({ file: `${'B'.repeat(43)}.ics` }),
    missing: () => ({ file: MISSING_FEED }),
  },
  [`GET ${P}`]: proposal('hc'),
  [`PUT ${P}`]: proposal('hc'),
  [`DELETE ${P}`]: proposal('hc'),
  // Each lifecycle call on a B proposal in the stage where B's own manager's call would succeed.
  [`POST ${P}/advance`]: proposal('hc', () => ({ from_stage: 'hc_approval' })),
  [`POST ${P}/revert`]: proposal('hc', () => ({ from_stage: 'hc_approval' })),
  [`POST ${P}/sustain`]: proposal('sustain'),
  [`POST ${P}/set-apart`]: proposal('setApart'),
  [`POST ${P}/ordain`]: proposal('ordain'),
  [`POST ${P}/record`]: proposal('record'),
  [`POST ${P}/decline`]: proposal('sp'),
  [`GET ${P}/history`]: proposal('declined'),
  [`POST ${P}/approvals`]: proposal('sp', () => ({ approved: true })),
  [`GET ${P}/approvals`]: proposal('sp'),
  // interviewer_id: A's own user (a valid interviewer in A); B's as a reference: REFERENCES below.
  [`POST ${P}/interview`]: proposal('interview', ({ a }) => ({ interviewer_id: a.hc.user.id })),
  [`GET ${P}/interview`]: proposal('interview'),
  [`POST ${P}/interview/complete`]: proposal('interview'),
  [`POST ${P}/comments`]: proposal('sp'),
  [`GET ${P}/comments`]: proposal('sp'),
  [`PUT ${P}/comments/{comment_id}`]: comment,
  [`DELETE ${P}/comments/{comment_id}`]: comment,
  [`POST ${P}/presented`]: proposal('sustain'),
  [`POST ${P}/remind`]: proposal('sp'),
  'GET /api/sustainings/{ward_id}': ward,
  'GET /api/sustainings/{ward_id}/script': ward,
  'PUT /api/webhooks/{webhook_id}': webhook,
  'DELETE /api/webhooks/{webhook_id}': webhook,
  'POST /api/webhooks/{webhook_id}/test': webhook,
  'GET /api/webhooks/{webhook_id}/deliveries': webhook,
  'POST /api/notifications/{notification_id}/read': { params: ({ b }) => ({ notification_id: b.notification }) },
  'GET /api/imports/{import_id}': { params: ({ b }) => ({ import_id: b.importPreview }) },
  'POST /api/imports/{import_id}/apply': { params: ({ b }) => ({ import_id: b.importPreview }) },
  'POST /api/imports/{import_id}/matches': { params: ({ b }) => ({ import_id: b.importPreview }) },
  'DELETE /api/notifications/push/devices/{subscription_id}': {
    params: ({ b }) => ({ subscription_id: b.pushDevice }),
  },
  'POST /api/notifications/push/devices/{subscription_id}/test': {
    params: ({ b }) => ({ subscription_id: b.pushDevice }),
  },
  // A booking link's token is a credential like the feed's (§18): found across stakes by its hash, then
  // served in its own stake; a well-formed token nobody holds answers exactly as another one.
  'GET /api/appointments/book/{token}': bookingLink,
  'POST /api/appointments/book/{token}': bookingLink,
  'PUT /api/appointments/book/{token}': bookingLink,
  'DELETE /api/appointments/book/{token}': bookingLink,
  'GET /api/appointments/book/{token}/calendar.ics': bookingLink,
  'GET /api/sunday-plan/{year}': year,
  // Accounts (docs/api-reference.md §16). A link token is a credential, not an id: it finds its own stake (tested in
  // modules/accounts); here a well-formed token nobody holds answers exactly as another one.
  'GET /api/auth/invitations/{token}': {
    params: () => ({ token: 'B'.repeat(43) }),
    missing: () => ({ token: 'C'.repeat(43) }),
  },
  'POST /api/auth/invitations/{token}': {
    params: () => ({ token: 'B'.repeat(43) }),
    missing: () => ({ token: 'C'.repeat(43) }),
  },
  'PATCH /api/auth/passkeys/{id}': { params: ({ b }) => ({ id: b.passkey }) },
  'DELETE /api/auth/passkeys/{id}': { params: ({ b }) => ({ id: b.passkey }) },
  'POST /api/users/{id}/invite': user,
  'POST /api/users/{id}/reset-link': user,
}

/** Valid bodies (as A's own data would need them), by operationId. */
const BODIES: Record<string, (s: Seeds) => unknown> = {
  updateUser: () => ({ email: `${unique('a')}@example.org`, fname: 'Ann', lname: 'Other' }),
  changePassword: () => ({ new_password: 'a-Long-new-password-42' }),
  setUserPermissions: () => ({ permissions: ['proposals.view'] }),
  updateCalling: () => ({ name: unique('Calling '), max_slots: 2 }),
  setCallingPermissions: () => ({ permissions: ['proposals.view'] }),
  fillSlot: ({ a }) => ({ user_id: a.plain.user.id }),
  updateWard: () => ({ name: unique('Ward '), start_time: 600 }),
  setSpeakingTopic: () => ({ topic: 'A topic of A', reference: null }),
  updateProposal: ({ a }) => proposalBody(a.wards[0]!, { fname: 'Ada' }),
  declineProposal: () => ({ reason: 'Not now' }),
  createComment: () => ({ comment_text: 'A says hello' }),
  updateComment: () => ({ comment_text: 'A edits' }),
  recordPresentation: ({ a }) => ({ ward_id: a.wards[0] }),
  updateWebhook: () => ({ url: 'https://hooks.example.org/a', events: ['comment'] }),
  bookAppointment: () => ({ starts_at: '2026-06-02T16:00:00Z' }),
  moveAppointment: () => ({ starts_at: '2026-06-02T16:00:00Z' }),
  acceptInvitation: () => ({ password: 'a-Long-new-password-42' }),
  renamePasskey: () => ({ name: 'A renames' }),
}

/** The required fields of a schema with the smallest valid values (for a route BODIES does not know yet). */
function requiredBody(schema: JsonSchema): unknown {
  if (schema.anyOf) return requiredBody(schema.anyOf[0]!)
  if (schema.enum) return schema.enum[0]
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  if (type === 'object')
    return Object.fromEntries((schema.required ?? []).map((n) => [n, requiredBody(schema.properties![n]!)]))
  if (type === 'string') return 'x'.repeat(Math.max(1, schema.minLength ?? 1))
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1
  if (type === 'boolean') return false
  if (type === 'array') return Array.from({ length: schema.minItems ?? 0 }, () => requiredBody(schema.items ?? {}))
  return null
}

/**
 * References to B's objects inside A's own requests (a body's or a query's
 * `*_id`): each answers exactly as a reference to a missing object.
 */
interface RefCase {
  params: Values
  /** The body (with the reference field), or null when the reference is a query value. */
  body: Record<string, unknown> | null
  query?: Values
  field: string
  b: number
}
/** A proposal of A (linked to A's calling and its holder, releasing him) with one of B's objects in each id field. */
function proposalReferences({ a, b }: Seeds, params: Values): RefCase[] {
  const body = () => ({
    ...proposalBody(a.wards[0]!, { fname: 'Ada' }),
    calling_id: a.calling,
    user_id: a.plain.user.id,
    releases: [
      { fname: 'Abel', lname: 'Plain', calling: 'Choir Director', calling_id: a.calling, user_id: a.plain.user.id },
    ],
  })
  return [
    { params, body: body(), field: 'ward_id', b: b.wards[0]! },
    { params, body: body(), field: 'submitter', b: b.users.member.id },
    { params, body: body(), field: 'calling_id', b: b.calling },
    { params, body: body(), field: 'user_id', b: b.users.member.id },
    { params, body: body(), field: 'releases.calling_id', b: b.calling },
    { params, body: body(), field: 'releases.user_id', b: b.users.member.id },
  ]
}

const REFERENCES: Record<string, (s: Seeds) => RefCase[]> = {
  fillSlot: ({ a, b }) => [
    { params: { calling_id: a.calling, slot_id: 2 }, body: {}, field: 'user_id', b: b.users.member.id },
  ],
  createWard: ({ b }) => [
    { params: {}, body: { name: unique('Ward '), start_time: 600 }, field: 'bishop_id', b: b.users.member.id },
  ],
  updateWard: ({ a, b }) => [
    {
      params: { ward_id: a.wards[1]! },
      body: { name: 'Oak Ward', start_time: 540 },
      field: 'bishop_id',
      b: b.users.member.id,
    },
  ],
  setSpeakingOverride: ({ a, b }) => [
    { params: {}, body: { high_councilor_id: a.hc.user.id, year: 2026, month: 6 }, field: 'ward_id', b: b.wards[0]! },
    { params: {}, body: { ward_id: a.wards[0], year: 2026, month: 6 }, field: 'high_councilor_id', b: b.users.hc.id },
  ],
  createProposal: (s) => proposalReferences(s, {}),
  updateProposal: (s) => proposalReferences(s, { proposal_id: s.a.proposal }),
  createComment: ({ a, b }) => [
    { params: { proposal_id: a.proposal }, body: { comment_text: 'x' }, field: 'proposal_id', b: b.proposals.sp },
    { params: { proposal_id: a.proposal }, body: { comment_text: 'x' }, field: 'commenter_id', b: b.users.member.id },
  ],
  updateComment: ({ a, b }) => [
    {
      params: { proposal_id: a.proposal, comment_id: a.comment },
      body: { comment_text: 'y' },
      field: 'proposal_id',
      b: b.proposals.sp,
    },
    {
      params: { proposal_id: a.proposal, comment_id: a.comment },
      body: { comment_text: 'y' },
      field: 'commenter_id',
      b: b.users.member.id,
    },
  ],
  recordPresentation: ({ a, b }) => [
    { params: { proposal_id: a.atSustain }, body: {}, field: 'ward_id', b: b.wards[0]! },
  ],
  // A seat number, not an object: nothing of B's to name. A number no seat of A has answers as a
  // missing one (stewardships.test.ts sends B's wards in ward_ids).
  putStewardships: () => [
    { params: {}, body: { seats: [{ ward_ids: [], organizations: [] }] }, field: 'seats.slot_id', b: 999998 },
  ],
  scheduleInterview: ({ a, b }) => [
    { params: { proposal_id: a.atInterview }, body: null, field: 'interviewer_id', b: b.users.hc.id },
  ],
  createImport: ({ b }) => [{ params: {}, body: null, field: 'ward_id', b: b.wards[0]! }],
  setAvailability: ({ b }) => [{ params: {}, body: null, field: 'user_id', b: b.users.member.id }],
  createAppointmentOffer: ({ b }) => [
    { params: {}, body: OFFER, field: 'proposal_id', b: b.proposals.hc },
    { params: {}, body: OFFER, field: 'interviewer_id', b: b.users.member.id },
  ],
  setSundayAssignments: ({ a, b }) => {
    const body = {
      date: '2026-03-22',
      assignments: [{ user_id: a.admin.user.id, kind: 'ward_visit', ward_id: a.wards[0] }],
    }
    return [
      { params: {}, body, field: 'assignments.user_id', b: b.users.member.id },
      { params: {}, body, field: 'assignments.ward_id', b: b.wards[0]! },
    ]
  },
}

/** A booking link's request as A's scheduler would make it (§18). */
const OFFER = { kind: 'other', name: 'Someone', duration_minutes: 30 }

/** The body with `field` (or `list.field`, in the list's one item) set to `id`. */
function withField(body: Record<string, unknown>, field: string, id: number): Record<string, unknown> {
  const [list, sub] = field.split('.')
  if (sub === undefined) return { ...body, [field]: id }
  const items = body[list!] as Record<string, unknown>[]
  return { ...body, [list!]: [{ ...items[0], [sub]: id }] }
}

/** Filters of the lists that name a stake object: B's. */
const LIST_QUERIES: Record<string, (s: Seeds) => Values> = {
  'GET /api/calling-kanban/proposals': ({ b }) => ({ ward_id: b.wards[0]! }),
  'GET /api/calling-kanban/proposals.csv': ({ b }) => ({ ward_id: b.wards[0]! }),
  'GET /api/audit': ({ b }) => ({ actor_id: b.admin.id }),
  'GET /api/appointments/availability': ({ b }) => ({ user_id: b.users.member.id }),
}

function urlOf(path: string, params: Values, query: Values = {}): string {
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    assert.ok(name in params, `no value for {${name}} of ${path}`)
    return encodeURIComponent(String(params[name]))
  })
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()
  return qs ? `${url}?${qs}` : url
}

/** Which table a numeric field's value comes from: by its own name, or for `id` by its parent's. */
const FIELD_TABLE: Record<string, string> = {
  user_id: 'users',
  submitter: 'users',
  approver_id: 'users',
  commenter_id: 'users',
  interviewer_id: 'users',
  actor_id: 'users',
  by_user_id: 'users',
  high_councilor_id: 'users',
  bishop_id: 'users',
  ward_id: 'wards',
  calling_id: 'callings',
  proposal_id: 'proposals',
  comment_id: 'proposal_comments',
  webhook_id: 'webhooks',
  notification_id: 'notifications',
  subscription_id: 'push_subscriptions',
}
const PARENT_TABLE: Record<string, string> = {
  user: 'users',
  users: 'users',
  submitter: 'users',
  high_councilor: 'users',
  interviewer: 'users',
  holder: 'users',
  bishop: 'users',
  approver: 'users',
  actor: 'users',
  ward: 'wards',
  wards: 'wards',
  calling: 'callings',
  callings: 'callings',
  proposal: 'proposals',
  proposals: 'proposals',
  closed_recently: 'proposals',
  sp_approval: 'proposals',
  hc_approval: 'proposals',
  interview: 'proposal_interviews',
  sustain: 'proposals',
  set_apart: 'proposals',
  record: 'proposals',
}
/** The table of the items of a list route's top-level array. */
const ROUTE_TABLE: Record<string, string> = {
  'GET /api/auth/sessions': 'sessions',
  'GET /api/users': 'users',
  'GET /api/callings': 'callings',
  'GET /api/wards': 'wards',
  'GET /api/calling-kanban/proposals': 'proposals',
  'GET /api/webhooks': 'webhooks',
  'GET /api/notifications': 'notifications',
  'GET /api/outbox': 'mail_outbox',
  'GET /api/audit': 'audit_log',
  'GET /api/actions': 'proposals',
  'GET /api/notifications/push/devices': 'push_subscriptions',
}

/** What of B an answer shows: the marker anywhere, or one of B's ids in a field that names its table. */
function leaks(res: LightMyRequestResponse, routeKey: string, bIds: Record<string, Set<number>>): string[] {
  const found: string[] = []
  const text = `${JSON.stringify(res.headers)}\n${res.body}`
  if (text.toLowerCase().includes(MARKER.toLowerCase())) {
    const at = text.toLowerCase().indexOf(MARKER.toLowerCase())
    found.push(`the marker: …${text.slice(Math.max(0, at - 80), at + 40)}…`)
  }
  if (!String(res.headers['content-type'] ?? '').includes('json')) return found
  const walk = (value: unknown, key: string | null, parent: string | null) => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, key, parent)
      return
    }
    if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, k, key)
      return
    }
    if (typeof value !== 'number' || key === null) return
    const table = key === 'id' ? (parent === null ? undefined : PARENT_TABLE[parent]) : FIELD_TABLE[key]
    if (table && bIds[table]?.has(value)) found.push(`${parent ?? ''}.${key} = ${value}, an id of B's ${table}`)
  }
  const body = res.json() as unknown
  if (!Array.isArray(body)) {
    walk(body, null, null)
    return found
  }
  // The items of a top-level list are the route's own rows.
  for (const item of body) {
    if (!item || typeof item !== 'object') continue
    for (const [k, v] of Object.entries(item)) {
      const table = ROUTE_TABLE[routeKey]
      if (k === 'id' && typeof v === 'number') {
        if (table && bIds[table]?.has(v)) found.push(`id = ${v}, an id of B's ${table}`)
      } else walk(v, k, null)
    }
  }
  return found
}

const described = (res: LightMyRequestResponse) => `${res.statusCode} ${res.body.slice(0, 300)}`
const is2xx = (res: LightMyRequestResponse) => res.statusCode >= 200 && res.statusCode < 300

const CONFIGS: { name: string; walls: AppWalls }[] =
  dialect === 'postgres'
    ? [
        { name: 'query filters and row-level security (as the app runs)', walls: 'both' },
        { name: 'query filters alone (the app as the superuser)', walls: 'filters' },
        { name: 'row-level security alone (no query plugin)', walls: 'rls' },
      ]
    : [{ name: 'query filters', walls: 'both' }]

for (const config of CONFIGS) {
  describe(`S16 stake isolation: ${config.name}`, () => {
    const t = useTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', PUSH_ALLOW_PRIVATE: 'true' }, { walls: config.walls })
    let s: Seeds
    let routes: Route[]
    let bIds: Record<string, Set<number>>
    /** A's lists before and after B's writes. */
    let aListsBefore: Map<string, string>
    let aListsAfter: Map<string, string>

    /** Every GET without path parameters, as A's administrator: `{key → the answer}` (with q and B's ids as filters when `filtered`). */
    async function callLists(filtered: boolean, extra: Values = {}): Promise<Map<string, LightMyRequestResponse>> {
      const answers = new Map<string, LightMyRequestResponse>()
      for (const route of routes.filter((r) => r.method === 'GET' && r.pathParams.length === 0)) {
        const query: Values = {}
        const names = route.queryParams.map((p) => p.name)
        if (names.includes('limit')) query.limit = 200
        if (filtered) {
          if (names.includes('q')) query.q = MARKER
          Object.assign(query, LIST_QUERIES[route.key]?.(s) ?? {})
        }
        answers.set(route.key, await s.a.admin.as('GET', urlOf(route.path, {}, { ...query, ...extra })))
      }
      return answers
    }

    /** What of A's lists must not move when B writes: status, counts, body. */
    const fingerprint = (answers: Map<string, LightMyRequestResponse>) =>
      new Map(
        [...answers].map(([key, res]) => [
          key,
          JSON.stringify({
            status: res.statusCode,
            total: res.headers['x-total-count'] ?? null,
            unread: res.headers['x-unread-count'] ?? null,
            // Health and readiness report uptimes and checks, not data.
            body: /\/(health|ready)$/.test(key) ? null : res.body,
          }),
        ]),
      )

    before(async () => {
      routes = routesOf(t)
      const a = await seedStakeA(t)
      s = { a, b: undefined as unknown as StakeB }
      aListsBefore = fingerprint(await callLists(false))
      s.b = await seedStakeB(t)
      aListsAfter = fingerprint(await callLists(false))
      bIds = idsOf(await stakeRows(t, s.b.stakeId))
    })

    it(`the app's database has the walls this block says (${config.walls})`, async () => {
      // The query plugin refuses a query outside any stake; without it the query runs (and row-level security answers).
      const unscoped = t.appDb.selectFrom('wards').select('id').execute()
      if (config.walls === 'rls') assert.deepEqual(await unscoped, [], 'no stake: row-level security shows nothing')
      else await assert.rejects(unscoped, /outside any stake/)
      if (dialect !== 'postgres') return
      // Raw SQL in A's stake, which the plugin cannot filter: only row-level security keeps B's rows out.
      const { rows } = await inStake(1, () =>
        sql<{ n: number }>`SELECT count(*) AS n FROM wards WHERE stake_id = ${s.b.stakeId}`.execute(t.appDb),
      )
      assert.equal(Number(rows[0]!.n) > 0, config.walls === 'filters', "B's wards seen from A's stake past the filter")
    })

    it("B's writes leave A's lists, counts and unread counts as they were", () => {
      assert.ok(aListsBefore.size > 15, 'the lists were called')
      for (const [key, value] of aListsBefore) assert.equal(aListsAfter.get(key), value, key)
    })

    it('every route with a parameter, called by A with B’s ids, answers as for a missing id; A’s references to B’s objects too; B’s rows unchanged', async () => {
      const rowsBefore = await stakeRows(t, s.b.stakeId)
      const problems: string[] = []
      const plain = s.a.plain.as
      const anonymous = injectAs(t, null)
      let called = 0

      for (const route of routes) {
        const requiredQuery = route.queryParams.filter((p) => p.required || isIdName(p.name)).map((p) => p.name)
        if (route.pathParams.length === 0 && !route.queryParams.some((p) => p.required)) continue
        const entry = MATRIX[route.key]
        if (!entry) {
          problems.push(`add ${route.key} to the isolation matrix`)
          continue
        }
        const params = entry.params(s)
        const query = { ...entry.query?.(s), ...entry.bQuery?.(s) }
        const unknown = [
          ...route.pathParams.filter((n) => !(n in params)),
          ...requiredQuery.filter((n) => !(n in query)),
        ]
        if (unknown.length) {
          problems.push(`add ${route.key} to the isolation matrix (parameters ${unknown.join(', ')})`)
          continue
        }
        const body = route.body ? (BODIES[route.operationId]?.(s) ?? requiredBody(route.body)) : undefined
        const method = route.method as 'GET'
        const label = `${route.key} (${route.operationId})`

        if (entry.scoped) {
          const res = await s.a.admin.as(method, urlOf(route.path, params, query), body)
          called++
          if (res.statusCode >= 500 || res.statusCode === 422) problems.push(`${label}: ${described(res)}`)
          for (const leak of leaks(res, route.key, bIds)) problems.push(`${label} shows B's data: ${leak}`)
          continue
        }

        const missingParams = entry.missing?.(s) ?? Object.fromEntries(Object.keys(params).map((k) => [k, MISSING]))
        const missingQuery = {
          ...entry.query?.(s),
          ...Object.fromEntries(Object.keys(entry.bQuery?.(s) ?? {}).map((k) => [k, MISSING])),
        }
        const calls = [{ params, missing: missingParams }, ...(entry.mixed?.(s) ?? [])]
        for (const call of calls) {
          const res = await s.a.admin.as(method, urlOf(route.path, call.params, query), body)
          const missing = await s.a.admin.as(method, urlOf(route.path, call.missing, missingQuery), body)
          called++
          const where = `${label} with ${JSON.stringify(call.params)}`
          if (entry.reference && !is2xx(res) && res.statusCode === missing.statusCode && res.body === missing.body) {
            // answered as for a missing reference
          } else if (res.statusCode === 422) problems.push(`${where}: 422, fix the body: ${res.body}`)
          else if (res.statusCode !== 404) problems.push(`${where}: expected 404, got ${described(res)}`)
          else if (missing.statusCode !== 404 || res.body !== missing.body)
            problems.push(`${where}: answers ${described(res)} but a missing id ${described(missing)}`)
          for (const leak of leaks(res, route.key, bIds)) problems.push(`${where} shows B's data: ${leak}`)

          // Naming B's stake (`?stake=`, for anonymous callers) changes nothing for a signed-in user of A.
          const named = await s.a.admin.as(
            method,
            urlOf(route.path, call.params, { ...query, stake: s.b.stakeId }),
            body,
          )
          if (!entry.reference && (named.statusCode !== 404 || named.body !== missing.body))
            problems.push(`${where} with ?stake=${s.b.stakeId}: ${described(named)}`)

          const fewer = await plain(method, urlOf(route.path, call.params, query), body)
          if (is2xx(fewer) || fewer.statusCode >= 500)
            problems.push(`${where} as a plain user of A: ${described(fewer)}`)
          if (method === 'GET') {
            const anon = await anonymous(method, urlOf(route.path, call.params, query))
            if (is2xx(anon) || anon.statusCode >= 500) problems.push(`${where} anonymously: ${described(anon)}`)
          }
        }
      }

      // References to B's objects in A's own requests.
      for (const route of routes) {
        const fields = [
          ...Object.entries(route.body?.properties ?? {}).flatMap(([name, schema]) => [
            ...(isIdName(name) ? [name] : []),
            // Ids inside a list of objects (a proposal's releases): `releases.user_id`.
            ...Object.keys(schema.items?.properties ?? {})
              .filter(isIdName)
              .map((sub) => `${name}.${sub}`),
          ]),
          ...route.queryParams.map((p) => p.name).filter((n) => isIdName(n) && route.method !== 'GET'),
        ]
        if (fields.length === 0) continue
        const cases = REFERENCES[route.operationId]?.(s) ?? []
        for (const field of fields) {
          // DELETE override's B id is in the matrix above (bQuery).
          if (MATRIX[route.key]?.bQuery?.(s)[field] !== undefined) continue
          if (!cases.some((c) => c.field === field))
            problems.push(`add ${route.key} (${route.operationId}) field ${field} to the isolation matrix's REFERENCES`)
        }
        for (const c of cases) {
          const send = (id: number) => {
            const query = { ...c.query, ...(c.body === null ? { [c.field]: id } : {}) }
            const body = c.body === null ? undefined : withField(c.body, c.field, id)
            return s.a.admin.as(route.method as 'GET', urlOf(route.path, c.params, query), body)
          }
          const res = await send(c.b)
          const missing = await send(MISSING)
          called++
          const where = `${route.key} (${route.operationId}) with B's ${c.field} ${c.b}`
          if (is2xx(res) || res.statusCode !== missing.statusCode || res.body !== missing.body)
            problems.push(`${where}: answers ${described(res)} but a missing one ${described(missing)}`)
          for (const leak of leaks(res, route.key, bIds)) problems.push(`${where} shows B's data: ${leak}`)
        }
      }

      assert.deepEqual(problems, [], problems.join('\n'))
      assert.ok(called > 60, `the matrix made its calls (${called})`)
      const rowsAfter = await stakeRows(t, s.b.stakeId)
      for (const table of Object.keys(rowsBefore))
        assert.deepEqual(rowsAfter[table], rowsBefore[table], `B's ${table} changed by A's calls`)
      // B still works as before: its session was not ended, its objects answer.
      await ok(s.b.as('GET', '/api/auth/me'))
      await ok(s.b.as('GET', `/api/calling-kanban/proposals/${s.b.proposals.hc}`))
    })

    it('every list, board, export, count and search of A holds nothing of B', async () => {
      const problems: string[] = []
      for (const route of routes.filter((r) => r.method === 'GET' && r.pathParams.length === 0)) {
        for (const n of route.queryParams.map((p) => p.name).filter(isIdName))
          if (!LIST_QUERIES[route.key]?.(s)[n]) problems.push(`add ${route.key} (query ${n}) to LIST_QUERIES`)
      }
      // Plain, with the marker as the search and B's ids as filters, and naming B's stake (`?stake=`).
      for (const [filtered, extra] of [
        [false, {}],
        [true, {}],
        [true, { stake: s.b.stakeId }],
      ] as const) {
        for (const [key, res] of await callLists(filtered, extra)) {
          if (res.statusCode >= 500) problems.push(`${key}: ${described(res)}`)
          const how = `${filtered ? ' (filtered)' : ''}${'stake' in extra ? ' (?stake=B)' : ''}`
          for (const leak of leaks(res, key, bIds)) problems.push(`${key}${how}: ${leak}`)
        }
      }
      // The yearly calendar and topics where B has data (2026: B's councilor, topic and override).
      for (const url of ['/api/speaking/calendar/2026', '/api/speaking/topics/2026', '/api/speaking/calendar']) {
        const res = await s.a.admin.as('GET', url)
        if (res.statusCode !== 200) problems.push(`${url}: ${described(res)}`)
        for (const leak of leaks(res, url, bIds)) problems.push(`${url}: ${leak}`)
      }
      assert.deepEqual(problems, [], problems.join('\n'))
    })

    it("A's calendar feed holds A's speaking schedule only", async () => {
      const url = ((await ok(s.a.admin.as('POST', '/api/speaking/feed'))) as { url: string }).url
      const feed = await t.app.inject({ method: 'GET', url: new URL(url).pathname })
      assert.equal(feed.statusCode, 200, feed.body)
      assert.ok(feed.body.includes('BEGIN:VEVENT'), "A's feed has A's councilor's events")
      assert.ok(!feed.body.toLowerCase().includes(MARKER.toLowerCase()), "B's names and topics are not in A's feed")
    })

    it("B's feed address, as B was given it, serves B's calendar (the token finds its stake)", async () => {
      const url = new URL(((await ok(s.b.as('POST', '/api/speaking/feed'))) as { url: string }).url)
      const feed = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })
      assert.equal(feed.statusCode, 200, feed.body)
      assert.ok(feed.body.includes(MARKER), "B's councilor and topics")
    })
  })
}
