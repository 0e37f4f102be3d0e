import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { Calling, ImportPreview, User, Ward } from '@stake/contract'
import { useTestApp } from '../../test/harness.ts'
import { ALL_PERMISSIONS, createUser, signedIn, unique } from '../../test/factories.ts'
import { expectError, locs, type As } from '../../test/callings.fixtures.ts'
import {
  CALLINGS_HEADER,
  csv,
  lcrPdf,
  MEMBER_LIST_HEADER,
  MEMBERS_WITH_CALLINGS_HEADER,
  postReport,
  tsv,
} from '../../test/imports.fixtures.ts'
import { otherStake } from '../../test/stakes.fixtures.ts'
import { importsPurgeJob } from './imports.purge.ts'

/** Importing LCR reports through HTTP (docs/api-reference.md §15). */
describe('imports of LCR reports (docs/api-reference.md §15)', () => {
  const t = useTestApp()
  let admin: { token: string; as: As; user: { id: number } }

  before(async () => {
    const a = await signedIn(t, { permissions: ALL_PERMISSIONS })
    admin = { token: a.token, as: a.as, user: a.user }
  })

  const makeWard = async (): Promise<Ward> => {
    const res = await admin.as('POST', '/api/wards/', { name: unique('Ward '), start_time: 600 })
    assert.equal(res.statusCode, 201, res.body)
    return res.json()
  }
  const preview = async (body: string | Buffer, type = 'text/csv', query = '', token = admin.token) => {
    const res = await postReport(t, token, body, type, query)
    assert.equal(res.statusCode, 201, res.body)
    return res.json() as ImportPreview
  }
  const apply = async (id: number, as: As = admin.as) => {
    const res = await as('POST', `/api/imports/${id}/apply`)
    assert.equal(res.statusCode, 200, res.body)
    return res.json() as { summary: ImportPreview['summary'] }
  }
  const usersNamed = async (lname: string): Promise<User[]> =>
    ((await admin.as('GET', `/api/users?q=${encodeURIComponent(lname)}&limit=200`)).json() as User[]).filter(
      (u) => u.lname === lname,
    )
  const callingNamed = async (name: string): Promise<Calling | undefined> =>
    ((await admin.as('GET', `/api/callings?q=${encodeURIComponent(name)}&limit=200`)).json() as Calling[]).find(
      (c) => c.name === name,
    )

  describe('a member list', () => {
    it('previews without changing anything, reads past gender, age and birth date, and never keeps them', async () => {
      const last = unique('Quillfeather')
      const body = csv(
        [
          MEMBER_LIST_HEADER,
          [`${last}, Anwen`, 'F', '54', '29 Apr 1971', '555-0101', `${last}@example.org`],
          [`${last}, Tobias`, 'M', '33', '2 Jan 1992', '555-0102', ''],
        ],
        { bom: true, crlf: true },
      )
      const shown = await preview(body)
      assert.equal(shown.kind, 'members')
      assert.equal(shown.status, 'preview')
      assert.deepEqual(shown.ignored_columns, ['Gender', 'Age', 'Birth Date'])
      assert.deepEqual(shown.summary.users, { create: 2, update: 0, unchanged: 0 })
      assert.deepEqual(
        shown.changes.map((c) => [c.row, c.target, c.action, c.fname, c.email]),
        [
          [1, 'user', 'create', 'Anwen', `${last}@example.org`],
          [2, 'user', 'create', 'Tobias', null],
        ],
      )
      assert.deepEqual(await usersNamed(last), [])
      const stored = await t.database.db.selectFrom('imports').selectAll().where('id', '=', shown.id).executeTakeFirst()
      const text = JSON.stringify(stored)
      for (const kept of ['1971', '1992', '"F"', '"M"', '"54"', '"33"']) assert.ok(!text.includes(kept), kept)
      assert.deepEqual((await admin.as('GET', `/api/imports/${shown.id}`)).json(), shown)
    })

    it('applies in one go: people with an email, roster entries without, nobody with a password; again → 409', async () => {
      const last = unique('Brightwater')
      const shown = await preview(
        tsv([
          MEMBER_LIST_HEADER,
          [`${last}, Odalys`, 'F', '40', '1 Jan 1986', '555-0110', `${last.toUpperCase()}@Example.org`],
          [`${last}, Pell`, 'M', '41', '1 Jan 1985', '', ''],
        ]),
        'text/tab-separated-values',
      )
      const { summary } = await apply(shown.id)
      assert.deepEqual(summary.users, { create: 2, update: 0, unchanged: 0 })
      const people = await usersNamed(last)
      assert.deepEqual(people.map((u) => [u.fname, u.email ?? null]).sort(), [
        ['Odalys', `${last.toUpperCase()}@Example.org`],
        ['Pell', null],
      ])
      const rows = await t.database.db
        .selectFrom('users')
        .select(['password_hash', 'phone', 'force_password_reset'])
        .where('lname', '=', last)
        .execute()
      assert.ok(rows.every((r) => r.password_hash === null))
      // Roster entries until invited, not accounts waiting for a password change.
      assert.ok(rows.every((r) => !r.force_password_reset))
      assert.ok(people.every((u) => !u.force_password_reset))
      assert.deepEqual(rows.map((r) => r.phone).sort(), ['555-0110', null].sort())
      expectError(await admin.as('POST', `/api/imports/${shown.id}/apply`), 409, 'already_applied')
      assert.equal((await admin.as('GET', `/api/imports/${shown.id}`)).json().status, 'applied')
      const audit = (await admin.as('GET', '/api/audit?action=import.&limit=5')).json()
      const entries = Array.isArray(audit) ? audit : audit.entries
      assert.ok(entries.some((e: { detail: { import_id?: number } }) => e.detail.import_id === shown.id))

      // The same report again: everything unchanged.
      const again = await preview(
        tsv([
          MEMBER_LIST_HEADER,
          [`${last}, Odalys`, 'F', '40', '1 Jan 1986', '555-0110', `${last}@example.org`],
          [`${last}, Pell`, 'M', '41', '1 Jan 1985', '', ''],
        ]),
        'text/plain',
      )
      assert.ok(again.changes.every((c) => c.action === 'unchanged'))
      assert.deepEqual(again.summary.users, { create: 0, update: 0, unchanged: 2 })
    })

    it('matches by email (any case), else by a unique name ignoring case and accents; two candidates are ambiguous', async () => {
      const last = unique('Núñez')
      const known = await createUser(t, { fname: 'José', lname: last })
      const twinA = await createUser(t, { fname: 'Ana', lname: `${last}x` })
      await createUser(t, { fname: 'ANA', lname: `${last}x` })
      const shown = await preview(
        csv([
          ['Name', 'Phone Number', 'E-mail'],
          [`${last.toUpperCase().normalize('NFD').replace(/\p{M}/gu, '')}, jose`, '555-0199', ''],
          [`Ana ${last}x`, '', ''],
          [`Someone, Else`, '', twinA.email.toUpperCase()],
        ]),
      )
      assert.deepEqual(
        shown.changes.map((c) => [c.row, c.action, c.user_id]),
        [
          [1, 'update', known.id],
          [3, 'update', twinA.id],
        ],
      )
      assert.deepEqual(shown.changes[0]!.changes, { phone: { from: null, to: '555-0199' } })
      assert.deepEqual(shown.problems, [{ row: 2, code: 'ambiguous_person', message: shown.problems[0]!.message }])
      assert.equal(shown.summary.skipped, 1)
    })
  })

  describe('a callings report', () => {
    it('PDF in: creates the people and the unknown callings, fills the ward slots, and shows them', async () => {
      const ward = await makeWard()
      const last = unique('Ashgrove')
      const existing = await admin.as('POST', '/api/callings/', { name: unique('Ward Mission Leader ') })
      const existingName: string = existing.json().name
      const callingName = unique('Primary Chorister ')
      const rows = [
        ['Primary', callingName, `${last}, Wren`, '3 Sep 2024', 'Yes'],
        ['Ward Mission', existingName.toUpperCase(), `${last}, Idris`, '12 Jan 2025', 'No'],
        ['Primary', callingName, `${last}, Sable`, '', ''],
        ['Bishopric', 'Bishop', `${last}, Corin`, '1 Mar 2023', 'Yes'],
      ]
      const pdf = await lcrPdf('Organizations and Callings', CALLINGS_HEADER, rows, { rowsPerPage: 2 })
      const shown = await preview(pdf, 'application/pdf', `ward_id=${ward.id}`)
      assert.equal(shown.kind, 'callings')
      assert.equal(shown.ward_id, ward.id)
      assert.deepEqual(shown.ignored_columns, [])
      assert.deepEqual(shown.summary, {
        users: { create: 4, update: 0, unchanged: 0 },
        callings: { create: 1 },
        slots: { fill: 4, update: 0, release: 0, unchanged: 0 },
        skipped: 0,
      })
      assert.deepEqual(shown.problems, [])
      assert.equal(await callingNamed(callingName), undefined)
      await apply(shown.id)

      const made = (await callingNamed(callingName))!
      assert.equal(made.is_public, false)
      assert.deepEqual(made.permissions, [])
      assert.deepEqual(
        made.slots.map((s) => [s.slot_id, s.ward_id, s.user?.fname]),
        [
          [1, ward.id, 'Wren'],
          [2, ward.id, 'Sable'],
        ],
      )
      const mission = (await callingNamed(existingName))!
      assert.equal(mission.slots.find((s) => s.user?.fname === 'Idris')?.ward_id, ward.id)
      const bishop = (await admin.as('GET', `/api/wards/${ward.id}`)).json() as Ward
      const corin = (await usersNamed(last)).find((u) => u.fname === 'Corin')!
      assert.equal(bishop.bishop_id, corin.id)
      // The holding began on the sustained date.
      const history = (await admin.as('GET', `/api/callings/${made.id}/history`)).json()
      assert.equal(
        history.find((h: { user: { fname: string } }) => h.user.fname === 'Wren').from,
        '2024-09-03T00:00:00.000Z',
      )

      // The same report again: nothing to do.
      const again = await preview(pdf, 'application/pdf', `ward_id=${ward.id}`)
      assert.ok(
        again.changes.every((c) => c.action === 'unchanged'),
        JSON.stringify(again.changes),
      )
      assert.deepEqual(again.summary.slots, { fill: 0, update: 0, release: 0, unchanged: 4 })
    })

    it('PDF in: a cell wrapped onto more lines (closer than the row pitch) is one row, also at the top of a page', async () => {
      const ward = await makeWard()
      const last = unique('Brackwater')
      const yw = unique('Young Women Class Presidency ')
      const eq = unique('Elders Quorum ')
      const auditor = unique('Stake Auditor ')
      const coordinator = unique('Sunday School ')
      const librarian = unique('Librarian ')
      const rows = [
        ['Young Women', `${yw}\nFirst Counselor`, `${last}, Maren`, '3 Sep 2024', 'Yes'],
        ['Primary', librarian, `${last}, Ode`, '', ''],
        ['Elders Quorum', `${eq}\nPresidency Second\nCounselor`, `${last}, Pim`, '', ''],
        // The first row of page 2 has no organization: a new row, never the end of the one above.
        ['', auditor, `${last}, Quill`, '', ''],
        ['Sunday School', `${coordinator}\nTeacher`, `${last},\nRue Anne`, '1 Mar 2023', ''],
      ]
      // Lines 11 apart inside a cell; rows 17 apart (padding 3 above and below), as a browser prints.
      const pdf = await lcrPdf('Organizations and Callings', CALLINGS_HEADER, rows, {
        rowsPerPage: 3,
        lineHeight: 11,
        padding: 3,
      })
      const shown = await preview(pdf, 'application/pdf', `ward_id=${ward.id}`)
      assert.deepEqual(shown.problems, [])
      assert.deepEqual(shown.summary, {
        users: { create: 5, update: 0, unchanged: 0 },
        callings: { create: 5 },
        slots: { fill: 5, update: 0, release: 0, unchanged: 0 },
        skipped: 0,
      })
      const joined = [
        [1, `${yw} First Counselor`, 'Maren', 'Young Women'],
        [2, librarian, 'Ode', 'Primary'],
        [3, `${eq} Presidency Second Counselor`, 'Pim', 'Elders Quorum'],
        [4, auditor, 'Quill', null],
        [5, `${coordinator} Teacher`, 'Rue Anne', 'Sunday School'],
      ]
      assert.deepEqual(
        shown.changes.filter((c) => c.target === 'slot').map((c) => [c.row, c.calling, c.fname, c.organization]),
        joined,
      )
      await apply(shown.id)
      const maren = (await callingNamed(`${yw} First Counselor`))!
      assert.deepEqual(
        maren.slots.map((s) => [s.ward_id, s.user?.fname]),
        [[ward.id, 'Maren']],
      )
      assert.deepEqual((await usersNamed(last)).map((u) => u.fname).sort(), [
        'Maren',
        'Ode',
        'Pim',
        'Quill',
        'Rue Anne',
      ])
    })

    it('PDF in: with every line the same distance apart, a line with an empty first column stays its own row', async () => {
      const ward = await makeWard()
      const last = unique('Cobbleway')
      const yw = unique('Young Women Class Presidency ')
      const librarian = unique('Librarian ')
      const rows = [
        ['Young Women', `${yw}\nFirst Counselor`, `${last}, Maren`, '', ''],
        ['', librarian, `${last}, Ode`, '', ''],
      ]
      const pdf = await lcrPdf('Organizations and Callings', CALLINGS_HEADER, rows)
      const shown = await preview(pdf, 'application/pdf', `ward_id=${ward.id}`)
      // "First Counselor" alone is row 2: a calling without a name (vacant), read past as before.
      assert.deepEqual(
        shown.changes.filter((c) => c.target === 'slot').map((c) => [c.row, c.calling, c.fname]),
        [
          [1, yw, 'Maren'],
          [3, librarian, 'Ode'],
        ],
      )
      assert.deepEqual(shown.problems, [])
      assert.deepEqual(shown.summary.users, { create: 2, update: 0, unchanged: 0 })
    })

    it('the report is the truth for the slots it lists; release_missing frees the ward seats it does not list', async () => {
      const ward = await makeWard()
      const last = unique('Fenwick')
      const name = unique('Sunday School President ')
      const first = await preview(
        csv([
          CALLINGS_HEADER,
          ['Sunday School', name, `${last}, Old`, '', ''],
          ['Primary', `${name} 2`, `${last}, Stays`, '', ''],
        ]),
        'text/csv',
        `ward_id=${ward.id}`,
      )
      await apply(first.id)
      const shown = await preview(
        csv([CALLINGS_HEADER, ['Sunday School', name, `${last}, New`, '', '']]),
        'text/csv',
        `ward_id=${ward.id}&release_missing=true`,
      )
      const slotChanges = shown.changes.filter((c) => c.target === 'slot')
      assert.deepEqual(
        slotChanges.map((c) => [c.action, c.fname, c.released_fname ?? null]),
        [
          ['fill', 'New', 'Old'],
          ['release', 'Stays', null],
        ],
      )
      await apply(shown.id)
      assert.deepEqual(
        (await callingNamed(name))!.slots.map((s) => s.user?.fname ?? null),
        ['New'],
      )
      assert.deepEqual(
        (await callingNamed(`${name} 2`))!.slots.map((s) => s.user),
        [null],
      )
    })

    it('S3: a seat the importer may not fill is a forbidden_seat problem, and that row is skipped', async () => {
      const importer = await signedIn(t, { permissions: ['users.manage', 'callings.manage'] })
      const last = unique('Marrow')
      const shown = await preview(
        csv([
          CALLINGS_HEADER,
          ['Stake Presidency', 'Stake President', `${last}, Eamon`, '', ''],
          ['Stake', unique('Stake Clerk Aide '), `${last}, Fay`, '', ''],
        ]),
        'text/csv',
        '',
        importer.token,
      )
      assert.deepEqual(
        shown.problems.map((p) => [p.row, p.code]),
        [[1, 'forbidden_seat']],
      )
      assert.deepEqual(shown.summary.slots, { fill: 1, update: 0, release: 0, unchanged: 0 })
      assert.equal(shown.summary.skipped, 1)
      const bishopOnly = await preview(csv([CALLINGS_HEADER, ['Bishopric', 'Bishop', `${last}, Gil`, '', '']]))
      assert.deepEqual(
        bishopOnly.problems.map((p) => p.code),
        ['needs_ward'],
      )
    })

    it('409 stale_import when a previewed slot changed since the preview', async () => {
      const ward = await makeWard()
      const last = unique('Tarrow')
      const name = unique('Activities Chair ')
      await apply(
        (await preview(csv([CALLINGS_HEADER, ['', name, `${last}, One`, '', '']]), 'text/csv', `ward_id=${ward.id}`))
          .id,
      )
      const shown = await preview(
        csv([CALLINGS_HEADER, ['', name, `${last}, Two`, '', '']]),
        'text/csv',
        `ward_id=${ward.id}`,
      )
      const calling = (await callingNamed(name))!
      expectError(await admin.as('DELETE', `/api/callings/${calling.id}/1`), 204)
      expectError(await admin.as('POST', `/api/imports/${shown.id}/apply`), 409, 'stale_import')
      assert.deepEqual(await usersNamed(last).then((u) => u.map((x) => x.fname)), ['One'])
    })
  })

  describe('access and malformed input', () => {
    it('needs users.manage and callings.manage', async () => {
      const users = await signedIn(t, { permissions: ['users.manage'] })
      const callings = await signedIn(t, { permissions: ['callings.manage'] })
      const body = csv([MEMBER_LIST_HEADER, ['A, B', '', '', '', '', '']])
      expectError(await postReport(t, users.token, body, 'text/csv'), 403, 'forbidden')
      expectError(await postReport(t, callings.token, body, 'text/csv'), 403, 'forbidden')
    })

    it("another importer's preview, an expired one and another stake's are not found", async () => {
      const shown = await preview(csv([MEMBER_LIST_HEADER, [`${unique('P')}, Q`, '', '', '', '', '']]))
      const other = await signedIn(t, { permissions: ALL_PERMISSIONS })
      expectError(await other.as('GET', `/api/imports/${shown.id}`), 404, 'not_found')
      expectError(await other.as('POST', `/api/imports/${shown.id}/apply`), 404, 'not_found')
      const stake = await otherStake(t)
      expectError(await stake.as('GET', `/api/imports/${shown.id}`), 404, 'not_found')
      const ward = await makeWard()
      const body = csv([MEMBER_LIST_HEADER, [`${unique('P')}, Q`, '', '', '', '', '']])
      expectError(await postReport(t, stake.token, body, 'text/csv', `ward_id=${ward.id}`), 404, 'not_found')
      // 24 hours later (the preview's own clock, not the session's).
      assert.equal(Date.parse(shown.expires_at) - Date.parse(shown.created_at), 24 * 3600 * 1000)
      await t.database.db.updateTable('imports').set({ expires_at: t.clock.iso() }).where('id', '=', shown.id).execute()
      expectError(await admin.as('GET', `/api/imports/${shown.id}`), 404, 'not_found')
      expectError(await admin.as('POST', `/api/imports/${shown.id}/apply`), 404, 'not_found')
      // The hourly round deletes it.
      const log = { info: () => {}, error: () => {} }
      await importsPurgeJob(t.database.db, t.clock, log).run()
      const left = await t.database.db.selectFrom('imports').select('id').where('id', '=', shown.id).execute()
      assert.deepEqual(left, [])
    })

    it('answers 422, 404 or 413 — never 500 — for bodies and queries it cannot use', async () => {
      const good = csv([MEMBER_LIST_HEADER, ['A, B', '', '', '', '', '']])
      assert.deepEqual(locs(await postReport(t, admin.token, 'Foo,Bar\n1,2\n', 'text/csv')), ['body'])
      const unknown = await postReport(t, admin.token, 'Foo,Bar\n1,2\n', 'text/csv')
      assert.match(unknown.json().detail[0].msg, /Name.*Calling.*E-mail/)
      assert.deepEqual(locs(await postReport(t, admin.token, 'Name,Email\n"open,x\n', 'text/csv')), ['body'])
      assert.deepEqual(
        locs(await postReport(t, admin.token, Buffer.from('%PDF-1.4 nonsense\0\0'), 'application/pdf')),
        ['body'],
      )
      assert.deepEqual(locs(await postReport(t, admin.token, '', 'text/csv')), ['body'])
      assert.deepEqual(locs(await postReport(t, admin.token, '{"a":1}', 'application/json')), ['header.content-type'])
      assert.deepEqual(locs(await postReport(t, admin.token, good, 'text/csv', 'kind=callings')), ['body'])
      assert.deepEqual(locs(await postReport(t, admin.token, good, 'text/csv', 'kind=nope')), ['query.kind'])
      assert.deepEqual(locs(await postReport(t, admin.token, good, 'text/csv', 'ward_id=0x1')), ['query.ward_id'])
      expectError(await postReport(t, admin.token, good, 'text/csv', 'ward_id=999999'), 404, 'not_found')
      const big = Buffer.alloc(5 * 1024 * 1024 + 10, 'a')
      assert.equal((await postReport(t, admin.token, big, 'text/csv')).statusCode, 413)
      const nul = await postReport(t, admin.token, `Name,Email\nA\u0000, B,\n`, 'text/csv')
      assert.equal(nul.statusCode, 201, nul.body)
      expectError(await admin.as('GET', '/api/imports/99999999'), 404, 'not_found')
    })

    it('keeps cells as plain text: HTML and formula characters come back unchanged', async () => {
      const last = unique('<b>Lee</b>')
      const ward = await makeWard()
      const shown = await preview(
        csv([
          MEMBERS_WITH_CALLINGS_HEADER,
          [`${last}, =HYPERLINK("x")`, 'F', '9', '1 Jan 2017', '+1 555', '<i>Org</i>', '@Calling&amp;', '', ''],
        ]),
        'text/csv',
        `ward_id=${ward.id}`,
      )
      const user = shown.changes.find((c) => c.target === 'user')!
      assert.equal(user.lname, last)
      assert.equal(user.fname, '=HYPERLINK("x")')
      assert.equal(shown.changes.find((c) => c.target === 'calling')!.calling, '@Calling&amp;')
      assert.equal(shown.changes.find((c) => c.target === 'slot')!.organization, '<i>Org</i>')
    })
  })

  it('bishop seat needs proposals.view (S3) and an importer may not seat himself without every permission', async () => {
    const ward = await makeWard()
    const importer = await signedIn(t, { permissions: ['users.manage', 'callings.manage'] })
    const me = await t.database.db
      .selectFrom('users')
      .select(['fname', 'lname'])
      .where('id', '=', importer.user.id)
      .executeTakeFirstOrThrow()
    const shown = await preview(
      csv([
        CALLINGS_HEADER,
        ['Bishopric', 'Bishop', `${unique('Holt')}, Ira`, '', ''],
        ['', unique('Librarian '), `${me.lname}, ${me.fname}`, '', ''],
      ]),
      'text/csv',
      `ward_id=${ward.id}`,
      importer.token,
    )
    assert.deepEqual(
      shown.problems.map((p) => [p.row, p.code]),
      [
        [1, 'forbidden_seat'],
        [2, 'forbidden_seat'],
      ],
    )
    assert.equal(shown.summary.slots.fill, 0)
  })
})
