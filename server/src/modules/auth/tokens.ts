import crypto from 'node:crypto'
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose'
import type { AccessClaims, TokenIssuer, VerifyResult } from '../../context.ts'

export const ISSUER = 'stake-admin'
export const AUDIENCE = 'stake-admin-api'

/** HS256 access tokens (docs/api-reference.md §3): sub, sid, iat, exp, iss, aud, typ. */
export class AccessTokens implements TokenIssuer {
  // A KeyObject made once: given raw bytes, jose imports the key again on every sign and verify.
  private readonly key: crypto.KeyObject

  constructor(
    secret: string,
    readonly ttlSeconds: number,
  ) {
    this.key = crypto.createSecretKey(Buffer.from(secret, 'utf8'))
  }

  async sign(claims: AccessClaims, now: Date): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000)
    return new SignJWT({ sid: claims.sessionId, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(claims.userId))
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .sign(this.key)
  }

  /** Only HS256 is accepted (no `none`, no algorithm confusion); issuer, audience and expiry are checked. */
  async verify(token: string, now: Date): Promise<VerifyResult> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
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
      return { ok: true, claims: { userId, sessionId: payload.sid } }
    } catch (error) {
      return { ok: false, reason: error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' }
    }
  }
}

/** Opaque refresh token `<session id>.<secret>`; only SHA-256(secret) is stored. */
export const newSessionId = (): string => crypto.randomBytes(16).toString('base64url')
export const newRefreshSecret = (): string => crypto.randomBytes(32).toString('base64url')
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
