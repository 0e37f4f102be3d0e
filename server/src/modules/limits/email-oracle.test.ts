import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import type { ImportPreview } from '@stake/contract'
import { createSecondInstance, useTestApp } from '../../test/harness.ts'
import { injectAs, login, unique } from '../../test/factories.ts'
import { csv, MEMBER_LIST_HEADER, postReport } from '../../test/imports.fixtures.ts'
import { createUserIn, otherStake } from '../../test/stakes.fixtures.ts'
import { hashSecret } from '../auth/tokens.ts'
import { createSignupCode } from '../stakes/signup.repository.ts'
import { LIMITS } from './limits.ts'

const BUDGET = LIMITS.emailOracle.limit

/**
 * S19, no bulk oracle (docs/SECURITY.md): whether an email belongs to another
 * stake is told at most BUDGET times an hour per stake — user creation and
 * imports together, counted in the database (two instances share it) — and
 * per client address at signup; past that nothing is told either way.
 */
describe('no bulk oracle of other stakes’ emails (S19)', () => {
  const t = useTestApp({}, { shareable: true })
  let second: Awaited<ReturnType<typeof createSecondInstance>>
  /** Emails of users of another stake: more than a budget's worth. */
  const elsewhere: string[] = []
  before(async () => {
    second = await createSecondInstance(t)
    const owner = await otherStake(t)
    for (let i = 0; i < BUDGET + 6; i++) elsewhere.push((await createUserIn(t, owner.stakeId)).email)
  })
  after(async () => second?.close())

  const fresh = () => `${unique('fresh')}@example.org`
  /** Request i through the first instance when i is even, the second when odd. */
  const asOn = (token: string) => {
    const one = injectAs(t, token)
    const two = injectAs({ ...t, app: second.app }, token)
    return (i: number, email: string) =>
      (i % 2 === 0 ? one : two)('POST', '/api/users/', { email, fname: 'Probe', lname: unique('Probe') })
  }
  const assertTold = (res: LightMyRequestResponse) => {
    assert.equal(res.statusCode, 409, res.body)
    assert.equal(res.json().code, 'duplicate_email')
  }
  const assertWithheld = (res: LightMyRequestResponse) => {
    assert.equal(res.statusCode, 429, res.body)
    assert.equal(res.json().code, 'too_many_attempts')
    assert.ok(Number(res.headers['retry-after']) >= 1)
  }

  it(`POST /users: ${BUDGET} other-stake emails are 409, the next is 429 and so is any new email; shared by instances`, async () => {
    const stake = await otherStake(t)
    const create = asOn(stake.token)
    for (let i = 0; i < BUDGET; i++) assertTold(await create(i, elsewhere[i]!))
    assertWithheld(await create(BUDGET, elsewhere[BUDGET]!))
    assertWithheld(await create(BUDGET + 1, elsewhere[BUDGET]!))
    // A withheld answer says nothing: an address used nowhere is refused alike.
    assertWithheld(await create(0, fresh()))
    // What was told once in the window is told again (it tells nothing new); the stake's own duplicate is its own.
    assertTold(await create(1, elsewhere[0]!))
    const own = await stake.as('GET', '/api/users/')
    assertTold(await create(0, (own.json() as { email: string }[])[0]!.email))
    // Another stake has its own budget.
    const other = await otherStake(t)
    assertTold(await asOn(other.token)(0, elsewhere[BUDGET]!))
    // A new hour: told again, and new people are created.
    t.clock.advance(LIMITS.emailOracle.windowSeconds)
    const again = asOn((await login(t, stake.admin)).token)
    assertTold(await again(0, elsewhere[BUDGET]!))
    assert.equal((await again(1, fresh())).statusCode, 201)
  })

  it('an email change to another stake’s email spends the same budget', async () => {
    const stake = await otherStake(t)
    const create = asOn(stake.token)
    for (let i = 0; i < BUDGET; i++) assertTold(await create(i, elsewhere[i]!))
    const made = await stake.as('POST', '/api/users/', { email: null, fname: 'Roster', lname: unique('R') })
    assert.equal(made.statusCode, 201, made.body)
    const change = await stake.as('PUT', `/api/users/${made.json().id}`, {
      ...(made.json() as object),
      email: elsewhere[BUDGET]!,
    })
    assertWithheld(change)
  })

  it('imports share the stake’s budget; past it every new email is email_unavailable alike; apply agrees', async () => {
    const stake = await otherStake(t)
    const row = (email: string) => [`${unique('Imp')}, Ann`, '', '', '', '', email]
    const preview = async (emails: string[]) => {
      const res = await postReport(t, stake.token, csv([MEMBER_LIST_HEADER, ...emails.map(row)]), 'text/csv')
      assert.equal(res.statusCode, 201, res.body)
      return res.json() as ImportPreview
    }
    const unavailable = (p: ImportPreview) => p.problems.filter((x) => x.code === 'email_unavailable').length
    const withEmail = (p: ImportPreview) =>
      p.changes.filter((c) => c.action === 'create' && (c as { email?: string | null }).email).length

    // Within the budget a new email is created with it, another stake's is left out.
    const first = await preview([elsewhere[0]!, fresh()])
    assert.equal(unavailable(first), 1)
    assert.equal(withEmail(first), 1)

    // The budget runs out inside this report (one told above): the rest of its new emails are not told either way.
    const emails = [...elsewhere.slice(1, BUDGET + 3), fresh(), fresh()]
    const spent = await preview(emails)
    assert.equal(unavailable(spent), emails.length, JSON.stringify(spent.problems))
    assert.equal(withEmail(spent), 0)
    const applied = await stake.as('POST', `/api/imports/${spent.id}/apply`)
    assert.equal(applied.statusCode, 200, applied.body)

    // User creation in the same stake finds the budget spent.
    assertWithheld(await asOn(stake.token)(1, fresh()))
  })

  it('POST /stakes: a 409 spends no code and is told at most the budget an hour per address, then 429', async () => {
    const code = unique('code-')
    await createSignupCode(t.database.db, hashSecret(code), 5, t.clock.iso())
    const address = '10.19.0.1'
    const signup = (i: number, email: string, remoteAddress = address) =>
      (i % 2 === 0 ? t.app : second.app).inject({
        method: 'POST',
        url: '/api/stakes',
        remoteAddress,
        payload: {
          code,
          stake_name: unique('Stake '),
          email,
          fname: 'Ana',
          lname: 'Founder',
          password: `pw-${unique()}-${unique()}`,
        },
      })
    for (let i = 0; i < BUDGET; i++) {
      // The address's signup attempts have their own, shorter window (LIMITS.signup).
      if (i > 0 && i % LIMITS.signup.limit === 0) t.clock.advance(LIMITS.signup.windowSeconds)
      assertTold(await signup(i, elsewhere[i]!))
    }
    t.clock.advance(LIMITS.signup.windowSeconds)
    assertWithheld(await signup(BUDGET, elsewhere[BUDGET]!))
    assertWithheld(await signup(BUDGET + 1, fresh()))
    assertTold(await signup(0, elsewhere[BUDGET]!, '10.19.0.2'))
    const left = await t.database.db
      .selectFrom('signup_codes')
      .select('uses_left')
      .where('code_hash', '=', hashSecret(code))
      .executeTakeFirstOrThrow()
    assert.equal(left.uses_left, 5, 'no 409 spent a use')
    assert.equal((await signup(0, fresh(), '10.19.0.3')).statusCode, 201)
  })
})
