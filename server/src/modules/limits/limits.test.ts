import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { createSecondInstance, useTestApp } from '../../test/harness.ts'
import { unique } from '../../test/factories.ts'
import { hashSecret } from '../auth/tokens.ts'
import { purgeExpired } from '../ops/housekeeping.ts'
import { createSignupCode } from '../stakes/signup.repository.ts'
import { LIMITS } from './limits.ts'

/**
 * S21 (docs/SECURITY.md, "Limits kept in the database"): the anonymous
 * writes are counted in the database, so two instances over one database
 * share every count — the requests below alternate between two apps, and a
 * limit kept in either's memory would let twice as many through.
 */
describe('anonymous writes are limited per client address in the database, across instances (S21)', () => {
  const t = useTestApp({}, { shareable: true })
  let second: Awaited<ReturnType<typeof createSecondInstance>>
  before(async () => {
    second = await createSecondInstance(t)
  })
  after(async () => second?.close())

  /** Request i goes to the first instance when i is even, to the second when odd. */
  const post = (i: number, url: string, payload: object | undefined, remoteAddress: string) =>
    (i % 2 === 0 ? t.app : second.app).inject({ method: 'POST', url, payload, remoteAddress })

  const assertLimited = (res: LightMyRequestResponse, what: string) => {
    assert.equal(res.statusCode, 429, `${what}: ${res.body}`)
    assert.equal(res.json().code, 'too_many_attempts')
    assert.ok(Number(res.headers['retry-after']) >= 1, 'Retry-After')
  }
  const challengeRows = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('webauthn_challenges')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('purpose', '=', 'login')
          .executeTakeFirstOrThrow()
      ).n,
    )

  it(`passkey-login options: ${LIMITS.passkeyOptions.limit} per address shared by both instances, then 429 and no challenge row`, async () => {
    const address = '10.21.0.1'
    const url = '/api/auth/passkey-login/options'
    const rows = await challengeRows()
    const { limit } = LIMITS.passkeyOptions
    for (let i = 0; i < limit; i++) assert.equal((await post(i, url, undefined, address)).statusCode, 200)
    assertLimited(await post(limit, url, undefined, address), 'first instance')
    assertLimited(await post(limit + 1, url, undefined, address), 'second instance')
    assert.equal(await challengeRows(), rows + limit, 'a refused request writes no challenge')
    assert.equal((await post(0, url, undefined, '10.21.0.2')).statusCode, 200, 'another address is not held')
    t.clock.advance(LIMITS.passkeyOptions.windowSeconds)
    assert.equal((await post(1, url, undefined, address)).statusCode, 200, 'a new window')
  })

  it(`signup: ${LIMITS.signup.limit} attempts per address shared by both instances, then 429`, async () => {
    await createSignupCode(t.database.db, hashSecret(unique('code-')), 1, t.clock.iso())
    const address = '10.21.1.1'
    const body = () => ({
      code: 'not-a-code',
      stake_name: unique('Stake '),
      email: `${unique('f')}@example.org`,
      fname: 'Ana',
      lname: 'Founder',
      password: `pw-${unique()}-${unique()}`,
    })
    for (let i = 0; i < LIMITS.signup.limit; i++)
      assert.equal((await post(i, '/api/stakes', body(), address)).statusCode, 403)
    assertLimited(await post(LIMITS.signup.limit, '/api/stakes', body(), address), 'first instance')
    assertLimited(await post(LIMITS.signup.limit + 1, '/api/stakes', body(), address), 'second instance')
    assert.equal((await post(0, '/api/stakes', body(), '10.21.1.2')).statusCode, 403, 'another address is not held')
  })

  it(`password reset: ${LIMITS.passwordReset.limit} requests per address shared by both instances, then 429`, async () => {
    const address = '10.21.2.1'
    const url = '/api/auth/password-reset'
    const { limit } = LIMITS.passwordReset
    // Together: each answer waits out the reset's answer floor.
    const answers = await Promise.all(
      Array.from({ length: limit }, (_, i) => post(i, url, { email: `x${i}@example.org` }, address)),
    )
    assert.deepEqual(
      answers.map((r) => r.statusCode),
      Array(limit).fill(202),
    )
    assertLimited(await post(limit, url, { email: 'y@example.org' }, address), 'first instance')
    assertLimited(await post(limit + 1, url, { email: 'y@example.org' }, address), 'second instance')
  })

  it('N parallel requests from one address on two instances: exactly the limit pass (one atomic count)', async () => {
    const address = '10.21.3.1'
    const url = '/api/auth/passkey-login/options'
    const { limit } = LIMITS.passkeyOptions
    const answers = await Promise.all(Array.from({ length: limit + 20 }, (_, i) => post(i, url, undefined, address)))
    const statuses = answers.map((r) => r.statusCode)
    assert.equal(statuses.filter((s) => s === 200).length, limit, statuses.join(','))
    assert.equal(statuses.filter((s) => s === 429).length, 20)
  })

  it('housekeeping deletes the windows that ended and keeps the live ones', async () => {
    await post(0, '/api/auth/passkey-login/options', undefined, '10.21.4.1')
    const rows = () => t.database.db.selectFrom('rate_limits').select(['bucket', 'key']).execute()
    assert.ok((await rows()).some((r) => r.key === '10.21.4.1'))
    t.clock.advance(LIMITS.passkeyOptions.windowSeconds - 1)
    await purgeExpired(t.database.db, t.clock.now())
    assert.ok(
      (await rows()).some((r) => r.key === '10.21.4.1'),
      'a live window stays',
    )
    t.clock.advance(3600)
    assert.ok((await purgeExpired(t.database.db, t.clock.now())).limits >= 1)
    assert.deepEqual(await rows(), [])
  })
})
