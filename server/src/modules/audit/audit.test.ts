import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { AuditEntry } from '@stake/contract'
import { withTransaction } from '../../db/transaction.ts'
import { ALL_PERMISSIONS, createUser, injectAs, login, seat, signedIn, unique } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { THROTTLE } from '../auth/attempts.ts'
import { systemCallingId } from '../../test/callings.fixtures.ts'
import { createWard, presidency, submit } from '../../test/proposals.fixtures.ts'
import { audit } from './audit.repository.ts'

type As = ReturnType<typeof injectAs>

/** Every password, token and cookie this file uses: none may appear in any entry (docs/api-reference.md §13). */
const secrets = new Set<string>()
const keep = <T extends { password?: string; token?: string; refresh?: string }>(value: T): T => {
  for (const secret of [value.password, value.token, value.refresh]) if (secret) secrets.add(secret)
  return value
}

describe('audit log: GET /audit and the entries each change writes', () => {
  // Days in the filters are whole days in STAKE_TIMEZONE: pinned, so the test does not depend on the machine's zone.
  const t = useTestApp({ STAKE_TIMEZONE: 'UTC' })
  /** A fresh administrator holding every permission: its entries are easy to pick out by actor_id. */
  const admin = async () => {
    const user = keep(await createUser(t, { permissions: ALL_PERMISSIONS }))
    const session = keep(await login(t, user))
    return { user, ...session, as: injectAs(t, session.token) }
  }
  const read = async (as: As, query: string) => {
    const res = await as('GET', `/api/audit?${query}`)
    assert.equal(res.statusCode, 200, res.body)
    return { rows: res.json() as AuditEntry[], total: Number(res.headers['x-total-count']) }
  }
  let reader: As
  const byActor = async (actorId: number, extra = '') => (await read(reader, `actor_id=${actorId}${extra}`)).rows
  const actions = (rows: AuditEntry[]) => rows.map((r) => r.action)

  it('needs users.manage: 401 anonymous, 403 signed in without it, 200 with it', async () => {
    reader = (await admin()).as
    assert.equal((await injectAs(t, null)('GET', '/api/audit')).statusCode, 401)
    const other = keep(await signedIn(t, { permissions: ['proposals.manage', 'callings.manage'] }))
    const res = await other.as('GET', '/api/audit')
    assert.equal(res.statusCode, 403)
    assert.equal(res.json().code, 'forbidden')
    assert.equal((await reader('GET', '/audit')).statusCode, 200, 'the root alias too')
  })

  it('records user create, update, deactivate, reactivate, password reset and change, and grant changes', async () => {
    const a = await admin()
    const created = await a.as('POST', '/api/users', {
      email: `${unique('u')}@example.org`,
      fname: 'Ann',
      lname: 'Lee',
    })
    assert.equal(created.statusCode, 201)
    const user = created.json()
    secrets.add(user.temporary_password)
    const id = user.id as number
    const put = (body: Record<string, unknown>) =>
      a.as('PUT', `/api/users/${id}`, { email: user.email, fname: 'Ann', lname: 'Lee', ...body })
    assert.equal((await put({ fname: 'Anne' })).statusCode, 200)
    assert.equal((await put({ fname: 'Anne' })).statusCode, 200, 'no change, no entry')
    assert.equal((await put({ fname: 'Anne', active: false })).statusCode, 200)
    assert.equal((await put({ fname: 'Anne', active: true })).statusCode, 200)
    const newPassword = `reset-${unique()}-${unique()}`
    secrets.add(newPassword)
    assert.equal((await a.as('PATCH', `/api/users/${id}/password`, { new_password: newPassword })).statusCode, 200)
    assert.equal((await a.as('PUT', `/api/users/${id}/permissions`, { permissions: ['wards.manage'] })).statusCode, 200)

    const rows = (await byActor(a.user.id)).reverse()
    assert.deepEqual(actions(rows), [
      'user.create',
      'user.update',
      'user.deactivate',
      'user.reactivate',
      'user.password_reset',
      'user.grants_change',
    ])
    for (const row of rows) {
      assert.equal(row.actor_id, a.user.id)
      assert.equal(row.target_type, 'user')
      assert.equal(row.target_id, id)
      assert.match(row.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    }
    assert.deepEqual(rows[0]!.detail, { email: user.email, fname: 'Ann', lname: 'Lee' })
    assert.deepEqual(rows[1]!.detail, { changes: { fname: { from: 'Ann', to: 'Anne' } } })
    assert.deepEqual(rows[4]!.detail, {})
    assert.deepEqual(rows[5]!.detail, { added: ['wards.manage'], removed: [] })

    // The user's own password change is theirs.
    const self = keep(await signedIn(t))
    secrets.add('my-own-new-passphrase')
    const res = await self.as('PATCH', `/api/users/${self.user.id}/password`, {
      old_password: self.user.password,
      new_password: 'my-own-new-passphrase',
    })
    assert.equal(res.statusCode, 200)
    const [own] = await byActor(self.user.id)
    assert.equal(own!.action, 'user.password_change')
    assert.equal(own!.target_id, self.user.id)
  })

  it('writes no entry for a refused change (409, 403, 422, 400)', async () => {
    const a = await admin()
    const existing = await createUser(t)
    const lesser = keep(await signedIn(t, { permissions: ['users.manage'] }))
    const plain = keep(await signedIn(t))
    const refused = [
      await a.as('POST', '/api/users', { email: existing.email, fname: 'X', lname: 'Y' }), // 409 duplicate
      await a.as('PUT', `/api/users/${a.user.id}`, { ...a.user, active: false }), // 409 self
      await lesser.as('PATCH', `/api/users/${a.user.id}/password`, { new_password: 'a-long-new-passphrase' }), // 403 S2
      await lesser.as('PUT', `/api/users/${existing.id}/permissions`, { permissions: ['wards.manage'] }), // 403
      await plain.as('PUT', `/api/users/${plain.user.id}`, { ...plain.user, active: false }), // 403
      await a.as('PATCH', `/api/users/${existing.id}/password`, { new_password: 'password' }), // 422 common
      await plain.as('PATCH', `/api/users/${plain.user.id}/password`, {
        old_password: 'not-the-password',
        new_password: 'a-long-new-passphrase',
      }), // 400
      await a.as('DELETE', `/api/callings/${await systemCallingId(t, 'bishop')}`), // 403 system_defined
    ]
    assert.deepEqual(
      refused.map((r) => r.statusCode),
      [409, 409, 403, 403, 403, 422, 400, 403],
    )
    for (const actor of [a.user.id, lesser.user.id, plain.user.id]) assert.deepEqual(await byActor(actor), [])
  })

  it('a transaction that fails after its audit insert leaves no entry', async () => {
    const db = t.database.db
    const action = 'ward.delete'
    const before = (await read(reader, `action=${action}`)).total
    await assert.rejects(
      withTransaction(db, async (trx) => {
        await audit(trx, { by: null, at: t.clock.iso() }, action, { type: 'ward', id: 999999 }, { name: 'Gone' })
        throw new Error('the change failed after its entry was written')
      }),
      /failed after/,
    )
    assert.equal((await read(reader, `action=${action}`)).total, before)
  })

  it('refuses a detail that carries a secret-named key (a programming error, never stored)', async () => {
    await assert.rejects(
      audit(t.database.db, { by: null, at: t.clock.iso() }, 'user.update', null, { new_password: 'x' }),
      /must not carry a secret/,
    )
    await assert.rejects(
      audit(t.database.db, { by: null, at: t.clock.iso() }, 'user.update', null, { nested: { token: 'x' } }),
      /must not carry a secret/,
    )
  })

  it('records calling create, update, grants change, delete, and slot fill and release', async () => {
    const a = await admin()
    const made = await a.as('POST', '/api/callings', { name: unique('Calling '), max_slots: 2 })
    assert.equal(made.statusCode, 201)
    const calling = made.json()
    const base = { name: calling.name, is_public: false, max_slots: 2 }
    assert.equal((await a.as('PUT', `/api/callings/${calling.id}`, { ...base, is_public: true })).statusCode, 200)
    assert.equal(
      (await a.as('PUT', `/api/callings/${calling.id}/permissions`, { permissions: ['wards.manage'] })).statusCode,
      200,
    )
    const holder = await createUser(t)
    assert.equal((await a.as('PUT', `/api/callings/${calling.id}/1`, { user_id: holder.id })).statusCode, 200)
    assert.equal((await a.as('PUT', `/api/callings/${calling.id}/1`, { user_id: holder.id })).statusCode, 409)
    assert.equal((await a.as('DELETE', `/api/callings/${calling.id}`)).statusCode, 409, 'a filled slot')
    assert.equal((await a.as('DELETE', `/api/callings/${calling.id}/1`)).statusCode, 204)
    assert.equal((await a.as('DELETE', `/api/callings/${calling.id}/1`)).statusCode, 204, 'empty already: no entry')
    assert.equal((await a.as('DELETE', `/api/callings/${calling.id}`)).statusCode, 204)

    const rows = (await byActor(a.user.id)).reverse()
    assert.deepEqual(actions(rows), [
      'calling.create',
      'calling.update',
      'calling.grants_change',
      'slot.fill',
      'slot.release',
      'calling.delete',
    ])
    assert.ok(rows.every((r) => r.target_type === 'calling' && r.target_id === calling.id))
    assert.deepEqual(rows[0]!.detail, { ...base, permissions: [] })
    assert.deepEqual(rows[1]!.detail, { name: calling.name, changes: { is_public: { from: false, to: true } } })
    assert.deepEqual(rows[2]!.detail, { name: calling.name, added: ['wards.manage'], removed: [] })
    assert.deepEqual(rows[3]!.detail, { calling: calling.name, slot_id: 1, user_id: holder.id })
    assert.deepEqual(rows[4]!.detail, { calling: calling.name, slot_id: 1, user_id: holder.id })
    assert.deepEqual(rows[5]!.detail, { name: calling.name })
  })

  it('records ward create, update and delete, with the Bishop seat filled and released', async () => {
    const a = await admin()
    const [first, second] = [await createUser(t), await createUser(t)]
    const name = unique('Ward ')
    const made = await a.as('POST', '/api/wards', { name, start_time: 600, bishop_id: first.id })
    assert.equal(made.statusCode, 201)
    const ward = made.json()
    const put = await a.as('PUT', `/api/wards/${ward.id}`, { name: `${name} 2`, start_time: 540, bishop_id: second.id })
    assert.equal(put.statusCode, 200)
    assert.equal((await a.as('DELETE', `/api/wards/${ward.id}`)).statusCode, 204)

    const rows = (await byActor(a.user.id)).reverse()
    assert.deepEqual(actions(rows), [
      'ward.create',
      'slot.fill',
      'slot.release',
      'slot.fill',
      'ward.update',
      'slot.release',
      'ward.delete',
    ])
    const bishop = await systemCallingId(t, 'bishop')
    assert.deepEqual(
      rows.map((r) => [r.target_type, r.target_id]),
      rows.map((r) => (r.action.startsWith('slot.') ? ['calling', bishop] : ['ward', ward.id])),
    )
    assert.deepEqual(rows[0]!.detail, { name, start_time: 600, speaking_sunday: 1 })
    assert.deepEqual(
      rows.filter((r) => r.action.startsWith('slot.')).map((r) => r.detail.user_id),
      [first.id, first.id, second.id, second.id],
    )
    assert.deepEqual(rows[4]!.detail, {
      name: `${name} 2`,
      changes: { name: { from: name, to: `${name} 2` }, start_time: { from: 600, to: 540 } },
    })
    assert.deepEqual(rows[6]!.detail, { name: `${name} 2` })
  })

  it('records proposal create, update, votes (with the auto-advance), moves, decline and delete', async () => {
    const a = await admin()
    const wardId = await createWard(t.database.db)
    const { president, first } = await presidency(t)
    keep(president)
    keep(first)
    const proposal = await submit(a.as, wardId, { fname: 'Juan', lname: 'Pérez', proposed_calling: 'Clerk' })
    const url = `/api/calling-kanban/proposals/${proposal.id}`
    const update = await a.as('PUT', url, {
      fname: 'Juan',
      lname: 'Pérez',
      proposed_calling: 'Ward clerk',
      ward_id: wardId,
    })
    assert.equal(update.statusCode, 200, update.body)
    assert.equal((await president.as('POST', `${url}/approvals?approved=true`)).statusCode, 201)
    assert.equal((await first.as('POST', `${url}/approvals?approved=true`)).statusCode, 201)
    assert.equal((await a.as('POST', `${url}/advance?from_stage=hc_approval`)).statusCode, 200)
    assert.equal((await a.as('POST', `${url}/advance?from_stage=hc_approval`)).statusCode, 409, 'stale: no entry')
    assert.equal((await a.as('POST', `${url}/decline`, { reason: 'Moved away' })).statusCode, 200)
    assert.equal((await a.as('DELETE', url)).statusCode, 204)

    const facts = { fname: 'Juan', lname: 'Pérez', proposed_calling: 'Ward clerk', ward_id: wardId }
    const all = (await read(reader, 'action=proposal.')).rows.filter((r) => r.target_id === proposal.id).reverse()
    assert.deepEqual(
      all.map((r) => [r.action, r.actor_id]),
      [
        ['proposal.create', a.user.id],
        ['proposal.update', a.user.id],
        ['proposal.vote', president.user.id],
        ['proposal.vote', first.user.id],
        ['proposal.stage', first.user.id],
        ['proposal.stage', a.user.id],
        ['proposal.decline', a.user.id],
        ['proposal.delete', a.user.id],
      ],
    )
    assert.ok(all.every((r) => r.target_type === 'proposal'))
    assert.deepEqual(all[0]!.detail, {
      ...facts,
      proposed_calling: 'Clerk',
      is_release: false,
      kind: 'call',
      stage: 'sp_approval',
    })
    assert.deepEqual(all[1]!.detail, {
      ...facts,
      changes: { proposed_calling: { from: 'Clerk', to: 'Ward clerk' }, spouse_name: { from: 'Pat', to: null } },
    })
    assert.deepEqual(all[2]!.detail, { ...facts, stage: 'sp_approval', approved: true, revote: false })
    // The kind (docs/api-reference.md §18) decides which stages are the presidency's (S14).
    const kind = 'call'
    assert.deepEqual(all[4]!.detail, { ...facts, stage: 'hc_approval', kind, from: 'sp_approval', to: 'hc_approval' })
    assert.deepEqual(all[5]!.detail, { ...facts, stage: 'interview', kind, from: 'hc_approval', to: 'interview' })
    assert.deepEqual(all[6]!.detail, { ...facts, stage: 'declined', kind, from: 'interview', reason: 'Moved away' })
    assert.deepEqual(all[7]!.detail, { ...facts, stage: 'declined', kind })

    // S9: a reader of the log without proposals.manage sees which proposal moved where, not who it is about.
    const lesser = keep(await signedIn(t, { permissions: ['users.manage'] }))
    const seen = (await read(lesser.as, 'action=proposal.')).rows.filter((r) => r.target_id === proposal.id).reverse()
    // S14: nor the votes cast at sp_approval (S9 lists them to the presidency and managers only).
    assert.deepEqual(
      seen.map((r) => r.action),
      all.map((r) => r.action).filter((action, i) => !(action === 'proposal.vote' && i < 4)),
    )
    assert.deepEqual(seen[2]!.detail, {
      ward_id: wardId,
      stage: 'hc_approval',
      kind: 'call',
      from: 'sp_approval',
      to: 'hc_approval',
    })
    assert.ok(!JSON.stringify(seen).includes('Pérez'))
  })

  it('records speaking overrides set and cleared', async () => {
    const a = await admin()
    const councilor = await createUser(t)
    const slot = await seat(t, 'high_councilor', councilor.id)
    const wardId = await createWard(t.database.db)
    const body = { high_councilor_id: councilor.id, month: 5, year: 2027, ward_id: wardId }
    assert.equal((await a.as('PUT', '/api/speaking/calendar/override', body)).statusCode, 200)
    const query = `high_councilor_id=${councilor.id}&month=5&year=2027`
    assert.equal((await a.as('DELETE', `/api/speaking/calendar/override?${query}`)).statusCode, 204)
    const refused = await a.as('PUT', '/api/speaking/calendar/override', { ...body, high_councilor_id: a.user.id })
    assert.equal(refused.statusCode, 422)

    const rows = (await byActor(a.user.id)).reverse()
    const hc = await systemCallingId(t, 'high_councilor')
    assert.deepEqual(
      rows.map((r) => [r.action, r.target_type, r.target_id, r.detail]),
      [
        [
          'override.set',
          'calling',
          hc,
          { year: 2027, month: 5, slot_id: slot, high_councilor_id: councilor.id, ward_id: wardId },
        ],
        ['override.clear', 'calling', hc, { year: 2027, month: 5, slot_id: slot, high_councilor_id: councilor.id }],
      ],
    )
  })

  describe('security events', () => {
    const form = (username: string, password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ username, password }).toString(),
      })
    const failures = async () => (await read(reader, 'action=auth.login_failed&limit=200')).rows

    it('a failed sign-in has no actor and names the user only when the email belongs to one', async () => {
      const user = keep(await createUser(t))
      const inactive = keep(await createUser(t, { active: false }))
      const unknown = `${unique('nobody')}@example.org`
      const typed = `typed-${unique()}`
      secrets.add(typed)
      assert.equal((await form(user.email, typed)).statusCode, 401)
      assert.equal((await form(inactive.email, inactive.password)).statusCode, 401)
      assert.equal((await form(unknown, typed)).statusCode, 401)

      const [noAccount, wasInactive, wrong] = (await failures()).slice(0, 3)
      assert.deepEqual(
        [wrong, wasInactive, noAccount].map((r) => [r!.actor_id, r!.target_type, r!.target_id, r!.detail.reason]),
        [
          [null, 'user', user.id, 'wrong_password'],
          [null, 'user', inactive.id, 'inactive'],
          [null, null, null, 'unknown_account'],
        ],
      )
      assert.equal(typeof noAccount!.detail.ip, 'string')
      const text = JSON.stringify(await read(reader, 'limit=200'))
      assert.ok(!text.includes(unknown.split('@')[0]!), 'the email typed for an unknown account is never kept')
    })

    it('records the lock that the fifth failure sets, naming the user; the refused attempts add nothing', async () => {
      const user = keep(await createUser(t))
      for (let i = 0; i < THROTTLE.accountFailures; i++) assert.equal((await form(user.email, 'wrong')).statusCode, 401)
      assert.equal((await form(user.email, user.password)).statusCode, 429)
      const locks = (await read(reader, 'action=auth.lock')).rows.filter((r) => r.target_id === user.id)
      assert.equal(locks.length, 1)
      assert.equal(locks[0]!.actor_id, null)
      assert.equal(locks[0]!.detail.scope, 'account')
      assert.equal(locks[0]!.detail.until, new Date(t.clock.now().getTime() + 30_000).toISOString())
      const failed = (await failures()).filter((r) => r.target_id === user.id)
      assert.equal(failed.length, THROTTLE.accountFailures, 'the 429 is no password check, so no failure')
    })

    it('records a reused refresh token as a security event about the session owner', async () => {
      const user = keep(await signedIn(t))
      const refresh = (cookie: string) =>
        t.app.inject({ method: 'GET', url: '/api/auth/refresh', cookies: { refresh_token: cookie } })
      const rotated = await refresh(user.refresh)
      assert.equal(rotated.statusCode, 200)
      secrets.add(rotated.cookies.find((c) => c.name === 'refresh_token')!.value)
      secrets.add(rotated.json().access_token)
      t.clock.advance(60) // past the grace window: the old cookie is now a stolen one
      assert.equal((await refresh(user.refresh)).statusCode, 401)
      const [entry] = (await read(reader, 'action=auth.refresh_reuse')).rows
      assert.equal(entry!.actor_id, null)
      assert.equal(entry!.target_type, 'user')
      assert.equal(entry!.target_id, user.user.id)
      assert.equal(typeof entry!.detail.ip, 'string')
    })
  })

  describe('filters and paging', () => {
    let a: Awaited<ReturnType<typeof admin>>
    const days = ['2031-01-10T10:00:00.000Z', '2031-01-11T10:00:00.000Z', '2031-01-12T23:30:00.000Z']

    it('lists newest first with X-Total-Count, and pages with limit and offset', async () => {
      a = await admin()
      // Entries on three days, inserted out of order; same instant → the later id first.
      const db = t.database.db
      const write = (at: string, action: 'ward.create' | 'ward.update' | 'user.update', id: number) =>
        audit(db, { by: a.user.id, at }, action, { type: 'ward', id }, { n: id })
      await write(days[1]!, 'ward.update', 2)
      await write(days[0]!, 'ward.create', 1)
      await write(days[2]!, 'ward.update', 3)
      await write(days[2]!, 'user.update', 4)

      const all = await read(reader, `actor_id=${a.user.id}`)
      assert.equal(all.total, 4)
      assert.deepEqual(
        all.rows.map((r) => r.detail.n),
        [4, 3, 2, 1],
      )
      const page = await read(reader, `actor_id=${a.user.id}&limit=2&offset=1`)
      assert.equal(page.total, 4)
      assert.deepEqual(
        page.rows.map((r) => r.detail.n),
        [3, 2],
      )
      assert.deepEqual((await read(reader, `actor_id=${a.user.id}&limit=0`)).rows, [])
    })

    it('filters by action: exact, or a group with a trailing dot', async () => {
      const n = async (q: string) => (await read(reader, `actor_id=${a.user.id}&${q}`)).rows.map((r) => r.detail.n)
      assert.deepEqual(await n('action=ward.update'), [3, 2])
      assert.deepEqual(await n('action=ward.'), [3, 2, 1])
      assert.deepEqual(await n('action=user.'), [4])
      assert.deepEqual(await n('action=ward.updat'), [], 'no dot at the end: exact')
      assert.deepEqual(await n('action=war.'), [], 'a prefix is a whole group')
    })

    it('filters by date (a whole day, inclusive) and by date-time', async () => {
      const n = async (q: string) => (await read(reader, `actor_id=${a.user.id}&${q}`)).rows.map((r) => r.detail.n)
      assert.deepEqual(await n('from=2031-01-11'), [4, 3, 2])
      assert.deepEqual(await n('to=2031-01-11'), [2, 1], 'a date as `to` is the whole day')
      assert.deepEqual(await n('from=2031-01-11&to=2031-01-11'), [2])
      assert.deepEqual(await n('from=2031-01-11T00:00:00Z'), [4, 3, 2])
      assert.deepEqual(await n('to=2031-01-11T10:00:00Z'), [2, 1], 'to is inclusive')
      assert.deepEqual(await n('from=2031-01-11T09:00:00%2B00:00&to=2031-01-12T23:29:59.999Z'), [2])
      assert.deepEqual(await n('from=2031-01-11T11:00:00%2B01:00&to=2031-01-11T11:00:00%2B01:00'), [2], 'offsets')
    })

    it('answers 422 for a malformed date, date-time, action or range, naming each bad field', async () => {
      for (const [query, locs] of [
        ['from=2031-02-30', ['from']],
        ['from=yesterday', ['from']],
        ['to=2031-01-11T24:00:00Z', ['to']],
        ['to=2031-01-11T10:00Z', ['to']],
        ['to=2031-01-11T10:00:00', ['to']],
        ['from=2031-01-11T10:00:60Z', ['from']],
        ['from=2031-13-01&to=2031-01-32', ['from', 'to']],
        ['from=2031-01-12&to=2031-01-11', ['to']],
        ['action=user', ['action']],
        ['action=User.create', ['action']],
        ['action=user.create%25', ['action']],
        ['actor_id=0x10', ['actor_id']],
        ['limit=201', ['limit']],
      ] as const) {
        const res = await reader('GET', `/api/audit?${query}`)
        assert.equal(res.statusCode, 422, query)
        assert.deepEqual(
          res.json().detail.map((d: { loc: string[] }) => d.loc.join('.')),
          locs.map((l) => `query.${l}`),
          query,
        )
      }
    })
  })

  it('never keeps a secret: no password, token or cookie used in this file appears in any entry', async () => {
    const rows = await t.database.db.selectFrom('audit_log').selectAll().execute()
    assert.ok(rows.length > 30, `entries written: ${rows.length}`)
    assert.ok(secrets.size > 20, `secrets used: ${secrets.size}`)
    const text = JSON.stringify(rows) + JSON.stringify((await read(reader, 'limit=200')).rows)
    for (const secret of secrets) assert.ok(!text.includes(secret), 'a secret appears in the audit log')
    const keys = (value: unknown): string[] =>
      value !== null && typeof value === 'object'
        ? Object.entries(value).flatMap(([key, inner]) => [key, ...keys(inner)])
        : []
    const named = rows
      .flatMap((r) => keys(JSON.parse(r.detail)))
      .filter((k) => /pass|hash|token|secret|cookie/i.test(k))
    assert.deepEqual(named, [])
  })
})

describe('audit log: retention', () => {
  const t = useTestApp({ AUDIT_RETENTION_DAYS: '10' })

  it('reads AUDIT_RETENTION_DAYS (default 730)', async () => {
    assert.equal(t.config.auditRetentionDays, 10)
    const { parseConfig, ConfigError } = await import('../../config.ts')
    assert.equal(parseConfig({}).auditRetentionDays, 730)
    assert.throws(() => parseConfig({ AUDIT_RETENTION_DAYS: '0' }), ConfigError)
    assert.throws(() => parseConfig({ AUDIT_RETENTION_DAYS: 'ten' }), ConfigError)
  })

  it("the server's housekeeping deletes entries older than the retention and keeps the rest", async () => {
    const { housekeeping } = await import('../ops/housekeeping.ts')
    const a = keep(await signedIn(t, { permissions: ALL_PERMISSIONS }))
    // Days pass between the requests: each signs in afresh.
    const as = async () => injectAs(t, keep(await login(t, a.user)).token)
    const post = async (name: string) => (await as())('POST', '/api/wards', { name, start_time: 600 })
    assert.equal((await post(unique('Old '))).statusCode, 201)
    t.clock.advance(5 * 24 * 3600)
    assert.equal((await post(unique('New '))).statusCode, 201)
    t.clock.advance(5 * 24 * 3600) // the first is exactly 10 days old: kept until it is older

    const run = async () => {
      const logged: unknown[] = []
      const log = { info: (d: unknown) => logged.push(d), error: (d: unknown) => logged.push(d) }
      const purging = housekeeping(t.database.db, t.clock, log as never, { auditDays: t.config.auditRetentionDays })
      purging.start()
      await purging.stop()
      return (logged[0] as { purged: { audit: number } }).purged.audit
    }
    const names = async () => {
      return ((await (await as())('GET', '/api/audit?action=ward.create')).json() as AuditEntry[]).map(
        (r) => r.detail.name,
      )
    }

    assert.equal(await run(), 0)
    assert.equal((await names()).length, 2)
    t.clock.advance(1)
    assert.equal(await run(), 1)
    assert.deepEqual(
      (await names()).map((n) => String(n).split(' ')[0]),
      ['New'],
    )
  })
})

describe('audit log: retention in the daily jobs', () => {
  const t = useTestApp({ AUDIT_RETENTION_DAYS: '1000', STAKE_TIMEZONE: 'UTC' })

  it('the daily job purges with AUDIT_RETENTION_DAYS, not the default 730 days', async () => {
    const { runDaily } = await import('../notifications/daily.ts')
    const a = keep(await signedIn(t, { permissions: ALL_PERMISSIONS }))
    assert.equal((await a.as('POST', '/api/wards', { name: unique('Kept '), start_time: 600 })).statusCode, 201)
    t.clock.advance(800 * 24 * 3600) // past the default, within the configured retention
    const deps = { db: t.database.db, dialect: t.database.dialect, clock: t.clock, config: t.config }
    const result = await runDaily(deps)
    assert.equal(result.purged?.audit, 0)
    const left = await t.database.db.selectFrom('audit_log').select('id').where('action', '=', 'ward.create').execute()
    assert.equal(left.length, 1)
  })
})
