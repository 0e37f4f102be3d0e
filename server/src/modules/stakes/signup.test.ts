import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { acrossStakes } from '../../db/stake-scope.ts'
import { createUser, injectAs, unique } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { hashSecret } from '../auth/tokens.ts'
import { createSignupCode } from './signup.repository.ts'
import { SIGNUPS_PER_WINDOW } from './signup.service.ts'

const t = useTestApp()

let address = 0
/** Each call from its own client address, so the flood limit counts only what a test means it to. */
const signup = (body: Record<string, unknown>, remoteAddress = `10.0.0.${++address}`) =>
  t.app.inject({ method: 'POST', url: '/api/stakes', payload: body, remoteAddress })

const body = (code: string, overrides: Record<string, unknown> = {}) => ({
  code,
  stake_name: unique('Stake '),
  email: `${unique('founder')}@example.org`,
  fname: 'Ana',
  lname: 'Founder',
  password: `pw-${unique()}-${unique()}`,
  ...overrides,
})

async function newCode(uses = 1): Promise<string> {
  const code = unique('code-')
  await createSignupCode(t.database.db, hashSecret(code), uses, t.clock.iso())
  return code
}

const stakeCount = async () =>
  Number(
    (
      await t.database.db
        .selectFrom('stakes')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

describe('POST /stakes (docs/api-reference.md §14)', () => {
  it('without any signup code the route is 404, exactly as an unknown route', async () => {
    const res = await signup(body('anything'))
    const unknown = await t.app.inject({ method: 'POST', url: '/api/no-such-route', payload: {} })
    assert.equal(res.statusCode, 404)
    assert.deepEqual(res.json(), unknown.json())
    assert.equal(await stakeCount(), 1)
  })

  it('creates a stake and signs its first administrator in (201, token, refresh cookie); /auth/me works', async () => {
    const code = await newCode()
    const request = body(code)
    const res = await signup(request)
    assert.equal(res.statusCode, 201, res.body)
    const { access_token, token_type } = res.json()
    assert.equal(token_type, 'bearer')
    assert.ok(
      res.cookies.some((c) => c.name === 'refresh_token' && c.httpOnly),
      'refresh cookie set',
    )
    assert.equal(res.headers['cache-control'], 'no-store')

    const as = injectAs(t, access_token)
    const me = await as('GET', '/api/auth/me')
    assert.equal(me.statusCode, 200, me.body)
    assert.equal(me.json().email, request.email)
    assert.equal(me.json().permissions.length, 7, 'every permission')

    // In a new stake of its own: no one else's users, its own system callings, the signup in its audit log.
    const user = await acrossStakes(() =>
      t.database.db.selectFrom('users').selectAll().where('email', '=', request.email).executeTakeFirstOrThrow(),
    )
    assert.notEqual(user.stake_id, 1)
    assert.equal(Boolean(user.force_password_reset), false)
    const stake = await t.database.db
      .selectFrom('stakes')
      .selectAll()
      .where('id', '=', user.stake_id)
      .executeTakeFirstOrThrow()
    assert.equal(stake.name, request.stake_name)
    const users = (await as('GET', '/api/users/')).json() as { email: string }[]
    assert.deepEqual(
      users.map((u) => u.email),
      [request.email],
    )
    const callings = (await as('GET', '/api/callings/')).json() as { key: string | null }[]
    assert.ok(callings.some((c) => c.key === 'stake_president'))
    const audit = await as('GET', '/api/audit/?action=stake.create')
    assert.equal(audit.statusCode, 200, audit.body)
    const entries = audit.json() as { action: string; actor_id: number; detail: { name: string } }[]
    assert.equal(entries.length, 1)
    assert.equal(entries[0]!.actor_id, user.id)
    assert.equal(entries[0]!.detail.name, request.stake_name)

    // The code had one use: it is spent.
    const again = await signup(body(code))
    assert.equal(again.statusCode, 403)
    assert.equal(again.json().code, 'forbidden')
  })

  it('an unknown code is 403 forbidden and creates nothing', async () => {
    await newCode()
    const before = await stakeCount()
    const res = await signup(body('not-a-code'))
    assert.equal(res.statusCode, 403)
    assert.equal(res.json().code, 'forbidden')
    assert.equal(await stakeCount(), before)
  })

  it('an email used anywhere on the deployment is 409 duplicate_email, and the code keeps its use', async () => {
    const existing = await createUser(t)
    const code = await newCode()
    const before = await stakeCount()
    const res = await signup(body(code, { email: existing.email.toUpperCase() }))
    assert.equal(res.statusCode, 409, res.body)
    assert.equal(res.json().code, 'duplicate_email')
    assert.equal(await stakeCount(), before)
    assert.equal((await signup(body(code))).statusCode, 201, 'the use was not spent')
  })

  it('a weak password is refused as everywhere (422) without spending the code', async () => {
    const code = await newCode()
    const res = await signup(body(code, { password: 'password123' }))
    assert.equal(res.statusCode, 422, res.body)
    assert.equal((await signup(body(code))).statusCode, 201)
  })

  it('two signups racing for a one-use code: one 201, one 403, one stake', async () => {
    for (let round = 0; round < 3; round++) {
      const code = await newCode()
      const before = await stakeCount()
      const results = await Promise.all([signup(body(code)), signup(body(code))])
      const statuses = results.map((r) => r.statusCode).sort()
      assert.deepEqual(statuses, [201, 403], results.map((r) => r.body).join(' '))
      assert.equal(await stakeCount(), before + 1)
      const row = await t.database.db
        .selectFrom('signup_codes')
        .select('uses_left')
        .where('code_hash', '=', hashSecret(code))
        .executeTakeFirstOrThrow()
      assert.equal(row.uses_left, 0)
    }
  })

  it(`more than ${SIGNUPS_PER_WINDOW} attempts from one address in the window: 429 with Retry-After`, async () => {
    const from = '10.9.9.9'
    for (let i = 0; i < SIGNUPS_PER_WINDOW; i++) assert.equal((await signup(body('wrong'), from)).statusCode, 403)
    const limited = await signup(body('wrong'), from)
    assert.equal(limited.statusCode, 429)
    assert.ok(Number(limited.headers['retry-after']) > 0)
    assert.equal((await signup(body('wrong'))).statusCode, 403, 'another address is not held')
  })
})
