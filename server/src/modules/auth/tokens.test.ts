import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import { describe, it } from 'node:test'
import { jwtVerify } from 'jose'
import {
  AUDIENCE,
  AccessTokens,
  ISSUER,
  hashSecret,
  newRefreshSecret,
  newSessionId,
  parseRefreshToken,
  sameHash,
} from './tokens.ts'

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256'
const now = new Date('2026-05-01T10:00:00Z')

describe('access tokens (unit)', () => {
  it('signs tokens that jose verifies with the pinned algorithm, issuer and audience', async () => {
    const tokens = new AccessTokens(SECRET, 900)
    const token = await tokens.sign({ userId: 42, sessionId: 'sess-abcdefghij' }, now)
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(SECRET), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: now,
    })
    assert.deepEqual(protectedHeader, { alg: 'HS256', typ: 'JWT' })
    assert.equal(payload.sub, '42')
    assert.equal(payload.sid, 'sess-abcdefghij')
    assert.equal(payload.typ, 'access')
    assert.equal(payload.exp! - payload.iat!, 900)
  })

  it('verifies its own tokens, refuses tampered ones, and expires them', async () => {
    const tokens = new AccessTokens(SECRET, 60)
    const token = await tokens.sign({ userId: 7, sessionId: 'sess-abcdefghij' }, now)
    assert.deepEqual(await tokens.verify(token, now), { ok: true, claims: { userId: 7, sessionId: 'sess-abcdefghij' } })
    const [h, p, sig] = token.split('.')
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), sub: '1' }),
    ).toString('base64url')
    assert.deepEqual(await tokens.verify(`${h}.${forged}.${sig}`, now), { ok: false, reason: 'invalid' })
    assert.deepEqual(await tokens.verify(token, new Date(now.getTime() + 59_000)), {
      ok: true,
      claims: { userId: 7, sessionId: 'sess-abcdefghij' },
    })
    assert.deepEqual(await tokens.verify(token, new Date(now.getTime() + 60_000)), { ok: false, reason: 'expired' })
  })

  it('refuses tokens signed with another secret', async () => {
    const other = await new AccessTokens(`${SECRET}-other`, 60).sign({ userId: 7, sessionId: 'sess-abcdefghij' }, now)
    assert.deepEqual(await new AccessTokens(SECRET, 60).verify(other, now), { ok: false, reason: 'invalid' })
  })

  it('parses refresh tokens strictly and compares hashes in constant time', () => {
    assert.equal(parseRefreshToken(undefined), null)
    assert.equal(parseRefreshToken('no-dot-here'), null)
    assert.equal(parseRefreshToken('short.x'), null)
    assert.deepEqual(parseRefreshToken('AAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBB'), {
      sessionId: 'AAAAAAAAAAAA',
      secret: 'BBBBBBBBBBBBBBBBBBBBBBBB',
    })
    const h = hashSecret('s')
    assert.equal(h.length, 64)
    assert.equal(sameHash(h, hashSecret('s')), true)
    assert.equal(sameHash(h, hashSecret('t')), false)
    assert.equal(sameHash(null, h), false)
  })

  it('refuses a token with another algorithm or none, even with the right claims', async () => {
    const tokens = new AccessTokens(SECRET, 60)
    const [, payload] = (await tokens.sign({ userId: 7, sessionId: 'sess-abcdefghij' }, now)).split('.')
    const header = (alg: string) => Buffer.from(JSON.stringify({ alg, typ: 'JWT' })).toString('base64url')
    assert.deepEqual(await tokens.verify(`${header('none')}.${payload}.`, now), { ok: false, reason: 'invalid' })
    const hs512 = crypto
      .createHmac('sha512', SECRET)
      .update(`${header('HS512')}.${payload}`)
      .digest('base64url')
    assert.deepEqual(await tokens.verify(`${header('HS512')}.${payload}.${hs512}`, now), {
      ok: false,
      reason: 'invalid',
    })
  })

  it('makes refresh values of 128 and 256 random bits, all different', () => {
    const secrets = Array.from({ length: 400 }, () => newRefreshSecret())
    const ids = Array.from({ length: 400 }, () => newSessionId())
    for (const s of secrets) assert.match(s, /^[A-Za-z0-9_-]{43}$/)
    for (const id of ids) assert.match(id, /^[A-Za-z0-9_-]{22}$/)
    assert.equal(new Set(secrets).size, secrets.length)
    assert.equal(new Set(ids).size, ids.length)
    assert.ok(parseRefreshToken(`${ids[0]}.${secrets[0]}`))
    assert.equal(hashSecret('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  })
})
