import crypto from 'node:crypto'
import { jwtVerify, errors as joseErrors } from 'jose'

export const ISSUER = 'stake-admin'
export const AUDIENCE = 'stake-admin-api'
const JWS_HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url')

export interface AccessClaims {
  userId: number
  sessionId: string
}

export type VerifyResult = { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' }

/** HS256 access tokens (contract §3): sub, sid, iat, exp, iss, aud, typ. */
export class AccessTokens {
  /** For jose's verification: imported once, not per call. */
  private readonly key: Promise<CryptoKey>
  /** For signing with node's HMAC. */
  private readonly hmacKey: crypto.KeyObject

  constructor(secret: string, readonly ttlSeconds: number) {
    this.hmacKey = crypto.createSecretKey(Buffer.from(secret, 'utf8'))
    this.key = crypto.webcrypto.subtle.importKey(
      'raw',
      Buffer.from(secret, 'utf8'),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    )
  }

  /**
   * Signs with node's HMAC directly: a compact JWS is three base64url parts,
   * and WebCrypto (what jose signs with) costs ~100 µs per call against ~4 µs
   * here — a large share of every login and refresh. Verification stays with
   * jose (pinned algorithm, issuer, audience, expiry); the tests verify every
   * token this signs through it.
   */
  async sign(claims: AccessClaims, now: Date): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000)
    const payload = {
      sub: String(claims.userId),
      sid: claims.sessionId,
      typ: 'access',
      iss: ISSUER,
      aud: AUDIENCE,
      iat,
      exp: iat + this.ttlSeconds,
    }
    const signingInput = `${JWS_HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`
    const signature = crypto.createHmac('sha256', this.hmacKey).update(signingInput).digest('base64url')
    return `${signingInput}.${signature}`
  }

  /**
   * Tokens already verified, by their exact text. A client sends the same
   * token for up to 15 minutes; the signature (WebCrypto HMAC, the costliest
   * step of an authenticated request) is checked once, expiry every time.
   * Revocation does not depend on this: the session is checked per request.
   */
  private readonly verified = new Map<string, { claims: AccessClaims; exp: number }>()
  private static readonly CACHE_SIZE = 10_000

  async verify(token: string, now: Date): Promise<VerifyResult> {
    const cached = this.verified.get(token)
    if (cached) {
      if (now.getTime() / 1000 < cached.exp) return { ok: true, claims: cached.claims }
      this.verified.delete(token)
      return { ok: false, reason: 'expired' }
    }
    const result = await this.verifyFully(token, now)
    if (result.ok) {
      if (this.verified.size >= AccessTokens.CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!)
      this.verified.set(token, { claims: result.claims, exp: result.exp })
    }
    return result.ok ? { ok: true, claims: result.claims } : result
  }

  private async verifyFully(
    token: string,
    now: Date,
  ): Promise<{ ok: true; claims: AccessClaims; exp: number } | { ok: false; reason: 'expired' | 'invalid' }> {
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: now,
        requiredClaims: ['sub', 'sid', 'iat', 'exp'],
      })
      const userId = Number(payload.sub)
      if (payload.typ !== 'access' || typeof payload.sid !== 'string' || !Number.isSafeInteger(userId) || userId < 1) {
        return { ok: false, reason: 'invalid' }
      }
      return { ok: true, claims: { userId, sessionId: payload.sid }, exp: payload.exp! }
    } catch (error) {
      return { ok: false, reason: error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' }
    }
  }
}

/**
 * Random values from a buffer filled by the CSPRNG 4 KiB at a time (one
 * refresh needs 32 bytes; a call to randomBytes per refresh cost more than its
 * hashing). Bytes handed out are zeroed in the buffer, so a secret is not kept.
 */
const RANDOM_POOL_BYTES = 4096
let randomPool = Buffer.alloc(0)
let randomOffset = 0

function randomBase64url(bytes: number): string {
  if (randomOffset + bytes > randomPool.length) {
    randomPool = crypto.randomBytes(RANDOM_POOL_BYTES)
    randomOffset = 0
  }
  const value = randomPool.toString('base64url', randomOffset, randomOffset + bytes)
  randomPool.fill(0, randomOffset, randomOffset + bytes)
  randomOffset += bytes
  return value
}

/** Opaque refresh token `<session id>.<secret>`; only SHA-256(secret) is stored. */
export const newSessionId = (): string => randomBase64url(16)
export const newRefreshSecret = (): string => randomBase64url(32)
export const hashSecret = (secret: string): string => crypto.hash('sha256', secret, 'hex')

export function parseRefreshToken(value: string | undefined): { sessionId: string; secret: string } | null {
  if (!value || value.length > 200) return null
  const match = /^([A-Za-z0-9_-]{10,64})\.([A-Za-z0-9_-]{20,100})$/.exec(value)
  return match ? { sessionId: match[1]!, secret: match[2]! } : null
}

/**
 * The secret that replaces `previous` at a rotation: HMAC(salt, previous),
 * with a fresh random salt kept in the session row. Whoever presents
 * `previous` again within the grace window gets this same secret back (issue
 * 19: an answer lost on the way); without `previous` (only its hash is
 * stored) nobody can compute it, and an old cookie predicts nothing either,
 * since every rotation draws a new salt.
 */
export const nextRefreshSecret = (previous: string, salt: string): string =>
  crypto.createHmac('sha256', salt).update(previous).digest('base64url')

/** Constant-time comparison of two hex digests. */
export function sameHash(a: string | null, b: string): boolean {
  if (a === null || a.length !== b.length) return false
  return crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b))
}
