import { SHARED_SESSION_IDLE_SECONDS, type Me, type SessionInfo, type TokenResponse } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { addSeconds } from '../../clock.ts'
import { notFound, unauthorized } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import { findUserByEmail, emailKey } from '../users/users.repository.ts'
import { sortPermissions } from '../users/permissions.repository.ts'
import { listHeldSlots } from '../callings/slots.repository.ts'
import * as sessions from './sessions.repository.ts'
import { SignInAttempts } from './attempts.ts'
import { hashSecret, newRefreshSecret, newSessionId, nextRefreshSecret, parseRefreshToken, sameHash } from './tokens.ts'
import { retrying, withTransaction } from '../../db/transaction.ts'
import { acrossStakes, setScope } from '../../db/stake-scope.ts'
import { AppError } from '../../errors.ts'
import { idleCutoff, isIdle } from './shared-sessions.ts'
import type { AuditDetail } from '../../events/types.ts'
import { audited, record } from '../../events/record.ts'
import { forgetUserDevices } from '../push/push.repository.ts'
import { revokeFeed } from '../speaking/feed.repository.ts'

/** How long the token just rotated out still yields an access token. */
export const REFRESH_GRACE_SECONDS = 10

const BAD_CREDENTIALS = 'Incorrect email or password'

export interface ClientInfo {
  ip: string
  userAgent: string | null
}

export interface IssuedSession {
  tokens: TokenResponse
  /**
   * Set when the cookie must be (re)written: value and remaining lifetime;
   * `maxAgeSeconds` null for a shared-computer session (a browser-session
   * cookie, gone when the browser closes).
   */
  cookie: { value: string; maxAgeSeconds: number | null } | null
}

const sessionExpired = () => unauthorized('Session expired or revoked')
/** 401 `session_idle`: the client can tell the user why (docs/api-reference.md §13). */
const sessionIdle = () =>
  new AppError(401, 'session_idle', 'Session ended after 30 minutes without activity (shared computer)', {
    'WWW-Authenticate': 'Bearer',
  })

export class AuthService {
  private readonly attempts: SignInAttempts

  constructor(private readonly ctx: AppContext) {
    this.attempts = new SignInAttempts(ctx)
  }

  private async accessToken(userId: number, sessionId: string, shared: boolean): Promise<TokenResponse> {
    const access_token = await this.ctx.tokens.sign({ userId, sessionId }, this.ctx.clock.now())
    const tokens: TokenResponse = { access_token, token_type: 'bearer', expires_in: this.ctx.tokens.ttlSeconds }
    if (shared) tokens.idle_timeout = SHARED_SESSION_IDLE_SECONDS
    return tokens
  }

  /** The cookie's Max-Age: the session's remaining lifetime, or none on a shared computer. */
  private maxAge(expiresAt: string, shared: boolean): number | null {
    if (shared) return null
    return Math.max(0, Math.floor((Date.parse(expiresAt) - this.ctx.clock.now().getTime()) / 1000))
  }

  async login(
    username: string,
    password: string,
    client: ClientInfo,
    options: { shared?: boolean } = {},
  ): Promise<IssuedSession> {
    const shared = options.shared === true
    const { db, clock, hasher } = this.ctx
    const now = clock.now()
    const nowIso = now.toISOString()
    const account = emailKey(username)
    const keys = { account, ip: client.ip }
    // Counted before the password is checked (S4); an active lock wins even over a correct password.
    const admission = await this.attempts.admit(keys)

    // Emails are unique across the deployment: the address finds the stake, and
    // everything after runs in the user's stake (docs/api-reference.md §14).
    const user = await acrossStakes(() => findUserByEmail(db, account))
    if (user) setScope({ stakeId: user.stake_id })
    // Unknown email, wrong password and inactive user take the same path and
    // the same time: one argon2 verification each, one audit write each.
    // A user without a password (invited, roster-only) takes the unknown account's path.
    const ok = user?.password_hash
      ? await hasher.verify(user.password_hash, password)
      : await hasher.verifyNothing(password)
    if (!user || !ok || !user.active) {
      // Its own transaction: the 401 that follows commits nothing else (docs/api-reference.md §13).
      const reason = !user ? 'unknown_account' : !ok ? 'wrong_password' : 'inactive'
      const target = user ? ({ type: 'user', id: user.id } as const) : null
      await this.attempts.signInFailed(admission, target, { at: nowIso, reason, ip: client.ip })
      throw unauthorized(BAD_CREDENTIALS)
    }
    await this.attempts.succeeded(keys)
    return this.startSession(user.id, client, shared)
  }

  /**
   * A new session for a user whose credentials were just checked (sign-in, a
   * new stake's signup), in the current stake: the access token and the
   * refresh cookie's value.
   */
  async startSession(userId: number, client: ClientInfo, shared = false): Promise<IssuedSession> {
    const { db, clock, config } = this.ctx
    const now = clock.now()
    const nowIso = now.toISOString()
    const secret = newRefreshSecret()
    const sessionId = newSessionId()
    const expiresAt = addSeconds(now, config.sessionTtlSeconds).toISOString()
    await retrying(() =>
      sessions.insertSession(db, {
        id: sessionId,
        user_id: userId,
        token_hash: hashSecret(secret),
        created_at: nowIso,
        expires_at: expiresAt,
        last_used_at: nowIso,
        user_agent: client.userAgent?.slice(0, 500) ?? null,
        ip: client.ip.slice(0, 64),
        shared,
      }),
    )
    return {
      tokens: await this.accessToken(userId, sessionId, shared),
      cookie: { value: `${sessionId}.${secret}`, maxAgeSeconds: shared ? null : config.sessionTtlSeconds },
    }
  }

  /**
   * Rotates the refresh token (docs/api-reference.md §3). The token just rotated out still
   * works for REFRESH_GRACE_SECONDS without another rotation, and gets the
   * cookie the rotation issued (two tabs; an answer lost on the way, issue
   * 19). Any older token this session issued is treated as stolen and ends
   * the session; a secret it never issued ends nothing (S6). A shared-computer
   * session unused for 30 minutes is ended and answered 401 `session_idle`
   * (docs/api-reference.md §13).
   */
  async refresh(
    cookieValue: string | undefined,
    log: (msg: string, data: object) => void,
    client?: ClientInfo,
  ): Promise<IssuedSession> {
    const { db, clock } = this.ctx
    const parsed = parseRefreshToken(cookieValue)
    if (!parsed) throw sessionExpired()
    const now = clock.now()
    const nowIso = now.toISOString()
    const cutoff = idleCutoff(now)
    const presented = hashSecret(parsed.secret)
    // The session's stake: everything after runs in it alone.
    const stake = await acrossStakes(() => sessions.findSessionStake(db, parsed.sessionId))
    if (stake === undefined) throw sessionExpired()
    setScope({ stakeId: stake })

    for (let attempt = 0; attempt < 2; attempt++) {
      // The usual case: one conditional write, for the current token of a live session.
      const salt = newRefreshSecret()
      const secret = nextRefreshSecret(parsed.secret, salt)
      const rotated = await withTransaction(db, (trx) =>
        sessions.rotateSessionToken(
          trx,
          parsed.sessionId,
          presented,
          { hash: hashSecret(secret), salt },
          nowIso,
          cutoff,
        ),
      )
      if (rotated) {
        return {
          tokens: await this.accessToken(rotated.user_id, parsed.sessionId, rotated.shared),
          cookie: {
            value: `${parsed.sessionId}.${secret}`,
            maxAgeSeconds: this.maxAge(rotated.expires_at, rotated.shared),
          },
        }
      }

      // Not rotated: unknown, expired, idle or revoked session, inactive user, or not the current token.
      const session = await sessions.findSessionForRefresh(db, parsed.sessionId)
      if (!session || session.expires_at <= nowIso || !session.active) throw sessionExpired()
      const shared = Boolean(session.shared)
      if (isIdle(shared, session.last_used_at, now)) {
        // Over whoever asks (the access check refuses it too): removing it ends nothing live (S6 holds).
        await retrying(() => sessions.deleteSession(db, session.id))
        throw sessionIdle()
      }
      if (sameHash(session.token_hash, presented)) continue // cannot follow a failed rotation; read again rather than guess

      const inGrace =
        sameHash(session.previous_token_hash, presented) &&
        session.rotated_at !== null &&
        now.getTime() - Date.parse(session.rotated_at) <= REFRESH_GRACE_SECONDS * 1000
      if (inGrace) {
        // The secret that rotation handed out, derived again (it is not stored).
        const issued = session.rotation_salt === null ? null : nextRefreshSecret(parsed.secret, session.rotation_salt)
        const current = issued !== null && sameHash(session.token_hash, hashSecret(issued))
        return {
          tokens: await this.accessToken(session.user_id, session.id, shared),
          cookie: current
            ? { value: `${session.id}.${issued}`, maxAgeSeconds: this.maxAge(session.expires_at, shared) }
            : null,
        }
      }

      if (await sessions.isRetiredToken(db, session.id, presented)) {
        await withTransaction(db, async (trx) => {
          await sessions.deleteSession(trx, session.id)
          const detail: AuditDetail = client ? { ip: client.ip } : {}
          await record(
            trx,
            this.ctx,
            audited({ by: null, at: nowIso }, 'auth.refresh_reuse', { type: 'user', id: session.user_id }, detail),
          )
        })
        log('refresh token reuse detected; session revoked', { session_id: session.id, user_id: session.user_id })
      }
      // A secret this session never issued (forged) changes nothing (S6).
      throw sessionExpired()
    }
    throw sessionExpired()
  }

  async logout(actor: Actor, all: boolean): Promise<void> {
    // S13 and S18 first: a failure leaves the session to retry with.
    if (all) {
      await withTransaction(this.ctx.db, async (trx) => {
        await revokeFeed(trx, actor.id)
        await forgetUserDevices(trx, actor.id)
      })
    }
    await retrying(() =>
      all ? sessions.deleteUserSessions(this.ctx.db, actor.id) : sessions.deleteSession(this.ctx.db, actor.sessionId),
    )
  }

  async me(actor: Actor): Promise<Me> {
    const callings = await listHeldSlots(this.ctx.db, actor.id)
    return { ...actor.user, callings, permissions: sortPermissions(actor.permissions) }
  }

  async listSessions(actor: Actor): Promise<SessionInfo[]> {
    const rows = await sessions.listUserSessions(this.ctx.db, actor.id, this.ctx.clock.iso())
    return rows.map((r) => ({ ...r, current: r.id === actor.sessionId }))
  }

  async endSession(actor: Actor, sessionId: string): Promise<void> {
    if (!(await retrying(() => sessions.deleteOwnSession(this.ctx.db, actor.id, sessionId)))) throw notFound('Session')
  }
}
