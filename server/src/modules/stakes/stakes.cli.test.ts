import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { sql } from 'kysely'
import { acrossStakes } from '../../db/stake-scope.ts'
import { STAKE_TABLES } from '../tables.ts'
import { injectAs, unique } from '../../test/factories.ts'
import { createTestApp, useTestApp, type TestApp } from '../../test/harness.ts'
import { hashSecret } from '../auth/tokens.ts'
import { NOT_TRANSFERRED } from './stakes.transfer.ts'

const CLI = path.join(import.meta.dirname, '../../cli.ts')

/** `npm run cli -- ...` as a process against the test's database. */
function cli(t: TestApp, ...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { ...process.env, DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

function ok(result: ReturnType<typeof cli>) {
  assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`)
  return result.stdout
}

const t = useTestApp({}, { shareable: true })

const signIn = (app: TestApp, email: string, password: string) =>
  app.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username: email, password }).toString(),
  })

/**
 * Signs in with a one-time password, meets the forced password change
 * (docs/api-reference.md §3) and changes it: `as` for the rest of the test.
 */
async function firstSignIn(app: TestApp, email: string, oneTimePassword: string) {
  const login = await signIn(app, email, oneTimePassword)
  assert.equal(login.statusCode, 200, login.body)
  let as = injectAs(app, login.json().access_token)
  const me = await as('GET', '/api/auth/me')
  assert.equal(me.statusCode, 200, me.body)
  const blocked = await as('GET', '/api/users/')
  assert.equal(blocked.statusCode, 403)
  assert.equal(blocked.json().code, 'password_change_required')
  const password = `pw-${unique()}-${unique()}`
  const changed = await as('PATCH', `/api/users/${me.json().id}/password`, {
    old_password: oneTimePassword,
    new_password: password,
  })
  assert.equal(changed.statusCode, 200, changed.body)
  const again = await signIn(app, email, password)
  as = injectAs(app, again.json().access_token)
  assert.equal((await as('GET', '/api/users/')).statusCode, 200)
  return { as, id: me.json().id as number }
}

/** `stake create --json`, then the administrator's first sign-in. */
async function createStake(app: TestApp, name = unique('Stake ')) {
  const email = `${unique('admin')}@example.org`
  const out = ok(cli(app, 'stake', 'create', '--name', name, '--admin-email', email, '--admin-fname', 'Ada', '--json'))
  const created = JSON.parse(out) as { stake_id: number; admin_email: string; one_time_password: string }
  assert.deepEqual(Object.keys(created).sort(), ['admin_email', 'one_time_password', 'stake_id'])
  assert.equal(created.admin_email, email)
  const admin = await firstSignIn(app, email, created.one_time_password)
  return { ...created, name, email, ...admin }
}

type As = ReturnType<typeof injectAs>

async function expect(as: As, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, status = [200, 201]) {
  const res = await as(method, url, body)
  assert.ok(status.includes(res.statusCode), `${method} ${url}: ${res.statusCode} ${res.body}`)
  return res.json()
}

/** Wards, users, callings with seats, proposals with votes, comments and history, speaking, notifications, audit. */
async function fill(as: As, adminId: number) {
  const maple = await expect(as, 'POST', '/api/wards/', { name: 'Maple Ward', start_time: 540 })
  const oak = await expect(as, 'POST', '/api/wards/', { name: 'Oak Ward', start_time: 600 })
  const ann = await expect(as, 'POST', '/api/users/', {
    email: `${unique('ann')}@example.org`,
    fname: 'Ann',
    lname: 'Lee',
  })
  const bo = await expect(as, 'POST', '/api/users/', {
    email: `${unique('bo')}@example.org`,
    fname: 'Bo',
    lname: 'Diaz',
  })
  const leader = await expect(as, 'POST', '/api/callings/', {
    name: 'Ward Mission Leader',
    is_public: true,
    max_slots: 2,
  })
  await expect(as, 'PUT', `/api/callings/${leader.id}/1`, { user_id: ann.id })
  const callings = (await expect(as, 'GET', '/api/callings/')) as { id: number; key: string | null }[]
  const president = callings.find((c) => c.key === 'stake_president')!
  const councilor = callings.find((c) => c.key === 'high_councilor')!
  await expect(as, 'PUT', `/api/callings/${president.id}/1`, { user_id: adminId })
  await expect(as, 'PUT', `/api/callings/${councilor.id}/1`, { user_id: bo.id })
  await expect(as, 'PUT', `/api/wards/${maple.id}`, { name: 'Maple Ward', start_time: 540, bishop_id: ann.id }, [200])

  const base = '/api/calling-kanban/proposals'
  const first = await expect(as, 'POST', base, {
    fname: 'Cy',
    lname: 'Moss',
    spouse_name: null,
    proposed_calling: 'Primary teacher',
    ward_id: maple.id,
  })
  await expect(as, 'POST', `${base}/${first.id}/approvals?approved=true`)
  await expect(as, 'POST', `${base}/${first.id}/comments`, { comment_text: 'A good fit.' })
  const second = await expect(as, 'POST', base, {
    fname: 'Di',
    lname: 'Ray',
    spouse_name: 'Ed',
    proposed_calling: 'Ward clerk',
    ward_id: oak.id,
  })
  await expect(as, 'POST', `${base}/${second.id}/decline`, { reason: 'Moving away' }, [200])

  await expect(as, 'PUT', '/api/speaking/calendar/override', {
    high_councilor_id: bo.id,
    year: 2026,
    month: 5,
    ward_id: oak.id,
  })
  await expect(as, 'PUT', '/api/speaking/topics/2026/5', { topic: 'Faith', reference: 'Hebrews 11' })
  return { first, second }
}

/** Every key that is an id (or names one) dropped: two stakes compare by content. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !(k === 'id' || k.endsWith('_id') || k === 'submitter' || k === 'by' || k === 'updated_at'))
        .map(([k, v]) => [k, withoutIds(v)]),
    )
  }
  return value
}

/** What the stake's administrator sees through the API. */
async function picture(as: As) {
  const base = '/api/calling-kanban/proposals'
  const proposals = [
    ...((await expect(as, 'GET', base)) as { id: number }[]),
    ...((await expect(as, 'GET', `${base}?stage=declined`)) as { id: number }[]),
  ]
  const details = []
  for (const p of proposals) {
    details.push({
      proposal: await expect(as, 'GET', `${base}/${p.id}`),
      votes: await expect(as, 'GET', `${base}/${p.id}/approvals`),
      comments: await expect(as, 'GET', `${base}/${p.id}/comments`),
      history: await expect(as, 'GET', `${base}/${p.id}/history`),
    })
  }
  return withoutIds({
    wards: await expect(as, 'GET', '/api/wards/'),
    users: await expect(as, 'GET', '/api/users/'),
    callings: await expect(as, 'GET', '/api/callings/'),
    proposals: details,
    board: await expect(as, 'GET', '/api/calling-kanban/board'),
    calendar: await expect(as, 'GET', '/api/speaking/calendar/2026'),
    topics: await expect(as, 'GET', '/api/speaking/topics/2026'),
    notifications: await expect(as, 'GET', '/api/notifications'),
    audit: ((await expect(as, 'GET', '/api/audit/')) as { action: string }[]).map((e) => e.action),
  })
}

/** Rows per stake-owned table for `stakeId`. */
async function rowCounts(app: TestApp, stakeId: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const table of STAKE_TABLES) {
    const row = await acrossStakes(() =>
      sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE stake_id = ${stakeId}`.execute(
        app.database.db,
      ),
    )
    counts[table] = Number(row.rows[0]!.n)
  }
  return counts
}

describe('npm run cli -- stake (docs/api-reference.md §14)', () => {
  it('create prints the id and a one-time password (--json); its administrator must change it; list shows it', async () => {
    const created = await createStake(t, 'Cedar Stake')
    const users = (await expect(created.as, 'GET', '/api/users/')) as { email: string }[]
    assert.deepEqual(
      users.map((u) => u.email),
      [created.email],
      'an administrator of the new stake only',
    )
    const me = await expect(created.as, 'GET', '/api/auth/me')
    assert.equal(me.permissions.length, 7)

    const listed = JSON.parse(ok(cli(t, 'stake', 'list', '--json'))) as { id: number; name: string; users: number }[]
    const row = listed.find((s) => s.id === created.stake_id)
    assert.deepEqual([row?.name, row?.users], ['Cedar Stake', 1])
    const text = ok(cli(t, 'stake', 'list'))
    assert.match(text, /^id\tname\tusers\tproposals\tcreated$/m)
    assert.match(text, new RegExp(`^${created.stake_id}\\tCedar Stake\\t1\\t0\\t`, 'm'))

    const taken = cli(t, 'stake', 'create', '--name', 'Again', '--admin-email', created.email)
    assert.equal(taken.status, 1)
    assert.match(taken.stderr, /already exists/)
  })

  it('signup-code prints a code (--json) whose hash alone is stored, and POST /stakes accepts it', async () => {
    const { code } = JSON.parse(ok(cli(t, 'stake', 'signup-code', '--uses', '2', '--json'))) as { code: string }
    assert.ok(code.length >= 20)
    const rows = await t.database.db.selectFrom('signup_codes').selectAll().execute()
    assert.ok(rows.some((r) => r.code_hash === hashSecret(code) && r.uses_left === 2))
    assert.ok(!JSON.stringify(rows).includes(code), 'the code itself is not stored')
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/stakes',
      payload: {
        code,
        stake_name: 'Birch Stake',
        email: `${unique('b')}@example.org`,
        fname: 'Bea',
        lname: 'Stone',
        password: `pw-${unique()}-${unique()}`,
      },
    })
    assert.equal(res.statusCode, 201, res.body)
  })

  it('delete refuses a wrong --confirm and the default stake; the right one removes every row of that stake only', async () => {
    const doomed = await createStake(t)
    await fill(doomed.as, doomed.id)
    const keeper = await createStake(t)
    await fill(keeper.as, keeper.id)
    const before = { doomed: await rowCounts(t, doomed.stake_id), keeper: await rowCounts(t, keeper.stake_id) }
    const first = await rowCounts(t, 1)
    assert.ok(before.doomed.proposals! > 0 && before.doomed.audit_log! > 0 && before.doomed.sessions! > 0)

    const wrong = cli(t, 'stake', 'delete', String(doomed.stake_id), '--confirm', 'Not its name')
    assert.equal(wrong.status, 1)
    assert.match(wrong.stderr, /--confirm must be the stake's exact name/)
    assert.deepEqual(await rowCounts(t, doomed.stake_id), before.doomed)
    const missing = cli(t, 'stake', 'delete', String(doomed.stake_id))
    assert.equal(missing.status, 1)
    const defaultStake = await t.database.db
      .selectFrom('stakes')
      .select('name')
      .where('id', '=', 1)
      .executeTakeFirstOrThrow()
    const refused = cli(t, 'stake', 'delete', '1', '--confirm', defaultStake.name)
    assert.equal(refused.status, 1)
    assert.match(refused.stderr, /default stake/)

    assert.match(ok(cli(t, 'stake', 'delete', String(doomed.stake_id), '--confirm', doomed.name)), /Deleted stake/)
    const after = await rowCounts(t, doomed.stake_id)
    assert.deepEqual(
      Object.entries(after).filter(([, n]) => n > 0),
      [],
      'no row of the stake is left',
    )
    const stake = await t.database.db.selectFrom('stakes').select('id').where('id', '=', doomed.stake_id).execute()
    assert.equal(stake.length, 0)
    assert.deepEqual(await rowCounts(t, keeper.stake_id), before.keeper, 'another stake keeps everything')
    assert.deepEqual(await rowCounts(t, 1), first)
    // Its administrator is gone: signing in fails as for any unknown email.
    assert.equal((await signIn(t, doomed.email, 'whatever-password')).statusCode, 401)
  })

  describe('export → import into another deployment', () => {
    let other: (TestApp & { close(): Promise<void> }) | null = null
    after(async () => {
      await other?.close()
    })

    it('the imported stake answers the same wards, users, callings, proposals, speaking and log; no secrets travel', async () => {
      const source = await createStake(t, 'Willow Stake')
      await fill(source.as, source.id)
      // A calendar feed: a token, which must not travel.
      await expect(source.as, 'POST', '/api/speaking/feed', undefined, [200, 201])
      const expected = await picture(source.as)

      const exported = cli(t, 'stake', 'export', String(source.stake_id))
      const text = ok(exported)
      const file = JSON.parse(text) as { stake: { name: string }; tables: Record<string, Record<string, unknown>[]> }
      assert.equal(file.stake.name, 'Willow Stake')
      for (const table of NOT_TRANSFERRED) assert.equal(file.tables[table], undefined, `${table} is not exported`)
      assert.ok(file.tables.users!.every((u) => !('password_hash' in u)))
      const hashes = await acrossStakes(() =>
        t.database.db.selectFrom('users').select('password_hash').where('stake_id', '=', source.stake_id).execute(),
      )
      for (const { password_hash } of hashes) assert.ok(password_hash && !text.includes(password_hash))
      assert.ok(file.tables.proposal_votes!.length > 0 && file.tables.audit_log!.length > 0)

      other = await createTestApp({}, { shareable: true })
      // The new deployment already has ids in use: the stake's rows must get new ones.
      await createStake(other, 'Resident Stake')
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-export-'))
      try {
        const exportFile = path.join(dir, 'willow.json')
        fs.writeFileSync(exportFile, text)
        const imported = JSON.parse(ok(cli(other, 'stake', 'import', exportFile, '--json'))) as {
          stake_id: number
          counts: Record<string, number>
        }
        assert.equal(imported.counts.users, file.tables.users!.length)

        // Its emails are taken now: a second import is refused whole.
        const twice = cli(other, 'stake', 'import', exportFile)
        assert.equal(twice.status, 1)
        assert.match(twice.stderr, /Nothing imported/)
        assert.equal(
          (await other.database.db.selectFrom('stakes').select('id').execute()).length,
          3,
          'no stake was added by the refused import',
        )
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
      const stakes = await other.database.db.selectFrom('stakes').selectAll().orderBy('id').execute()
      const copy = stakes.at(-1)!
      assert.equal(copy.name, 'Willow Stake')

      // Imported users have no password: the operator gives the administrator a one-time one.
      const { password_hash: unusable } = await acrossStakes(() =>
        other!.database.db
          .selectFrom('users')
          .select('password_hash')
          .where('email', '=', source.email)
          .executeTakeFirstOrThrow(),
      )
      assert.ok(!hashes.some((h) => h.password_hash === unusable))
      assert.equal((await signIn(other, source.email, 'anything-at-all')).statusCode, 401)
      const reset = ok(cli(other, 'reset-password', source.email))
      const oneTime = /one-time password: (\S+)/.exec(reset)![1]!
      const admin = await firstSignIn(other, source.email, oneTime)

      // Same content, new ids, every reference kept.
      const actual = (await picture(admin.as)) as { audit: string[] }
      // The copy's two entries more: the failed sign-in above, the administrator's password change.
      const audit = [...actual.audit]
      for (const action of ['auth.login_failed', 'user.password_change']) audit.splice(audit.indexOf(action), 1)
      assert.deepEqual({ ...actual, audit }, expected)
      const counts = await rowCounts(other, copy.id)
      const sourceCounts = await rowCounts(t, source.stake_id)
      for (const table of STAKE_TABLES) {
        if ((NOT_TRANSFERRED as readonly string[]).includes(table)) continue
        const more = table === 'audit_log' ? 2 : 0
        assert.equal(counts[table], sourceCounts[table]! + more, `${table}: the same number of rows`)
      }
      assert.equal(counts.speaking_feeds, 0, 'no calendar feed token travels')
    })
  })
})
