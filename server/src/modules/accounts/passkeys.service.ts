import crypto from 'node:crypto'
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  RegistrationResponseJSON,
} from '@simplewebauthn/server'
import type { Passkey } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { addSeconds } from '../../clock.ts'
import { isUniqueViolation } from '../../db/database.ts'
import { retrying, withTransaction } from '../../db/transaction.ts'
import { acrossStakes, currentStakeId, setScope } from '../../db/stake-scope.ts'
import { AppError, conflict, notFound, unauthorized } from '../../errors.ts'
import { audited, record } from '../../events/record.ts'
import type { Actor } from '../../actor.ts'
import { SignInAttempts } from '../auth/attempts.ts'
import { AuthService, type ClientInfo, type IssuedSession } from '../auth/auth.service.ts'
import { addressKey, LIMITS, spend } from '../limits/limits.ts'
import { currentStakeSettings } from '../stakes/stakes.repository.ts'
import * as repo from './passkeys.repository.ts'

let library: Promise<typeof import('@simplewebauthn/server')> | null = null
/** The WebAuthn library, loaded on the first passkey request (~30 MB a server without passkeys never needs). */
const webauthn = () => (library ??= import('@simplewebauthn/server'))

/** How long a challenge may be answered. */
const CHALLENGE_SECONDS = 5 * 60

/** Who the browser must be talking to: the relying party's id (a host name) and the page's origin. */
export interface RelyingParty {
  id: string
  origin: string
}

const FAILED = 'Passkey sign-in failed'
const hash = (value: string) => crypto.hash('sha256', value, 'hex')
const invalidPasskey = (message = 'The passkey could not be verified') => new AppError(400, 'invalid_passkey', message)

/**
 * Passkeys (docs/api-reference.md §16), with @simplewebauthn/server:
 * discoverable credentials, user verification required, challenges kept
 * server-side for five minutes and spent once, the signature counter and
 * the origin checked. A passkey sign-in is throttled and audited like a
 * password sign-in (S4) and makes the same kind of session.
 */
export class PasskeysService {
  private readonly auth: AuthService
  private readonly attempts: SignInAttempts

  constructor(private readonly ctx: AppContext) {
    this.auth = new AuthService(ctx)
    this.attempts = new SignInAttempts(ctx)
  }

  async list(actor: Actor): Promise<Passkey[]> {
    return (await repo.listUserPasskeys(this.ctx.db, actor.id)).map(repo.toPasskey)
  }

  async registrationOptions(actor: Actor, rp: RelyingParty) {
    const { db, clock } = this.ctx
    const [stake, existing] = await Promise.all([currentStakeSettings(db), repo.listUserPasskeys(db, actor.id)])
    const user = actor.user
    const options = await (
      await webauthn()
    ).generateRegistrationOptions({
      rpName: stake.name,
      rpID: rp.id,
      userName: user.email ?? `${user.fname} ${user.lname}`,
      userDisplayName: `${user.fname} ${user.lname}`,
      // Stable per account: a second registration on one authenticator replaces, not duplicates.
      userID: new TextEncoder().encode(`stake-${currentStakeId()}-user-${actor.id}`),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({
        id: p.credential_id,
        transports: p.transports ? (JSON.parse(p.transports) as AuthenticatorTransport[]) : undefined,
      })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      timeout: CHALLENGE_SECONDS * 1000,
    })
    const now = clock.now()
    await retrying(() =>
      repo.saveChallenge(
        db,
        {
          challenge_hash: hash(options.challenge),
          purpose: 'register',
          stake_id: currentStakeId(),
          user_id: actor.id,
          expires_at: addSeconds(now, CHALLENGE_SECONDS).toISOString(),
        },
        now.toISOString(),
      ),
    )
    return options
  }

  async register(actor: Actor, credential: unknown, name: string | undefined, rp: RelyingParty): Promise<Passkey> {
    const { db, clock } = this.ctx
    const nowIso = clock.iso()
    const owner = { stake_id: currentStakeId(), user_id: actor.id }
    let verified
    try {
      verified = await (
        await webauthn()
      ).verifyRegistrationResponse({
        response: credential as RegistrationResponseJSON,
        expectedChallenge: (challenge) => repo.spendChallenge(db, hash(challenge), 'register', owner, nowIso),
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: true,
      })
    } catch {
      throw invalidPasskey()
    }
    if (!verified.verified) throw invalidPasskey()
    const info = verified.registrationInfo
    try {
      return await withTransaction(db, async (trx) => {
        const row = await repo.insertPasskey(trx, {
          user_id: actor.id,
          credential_id: info.credential.id,
          public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
          counter: info.credential.counter,
          transports: info.credential.transports ? JSON.stringify(info.credential.transports) : null,
          name: name?.trim() || defaultName(credential),
          created_at: nowIso,
        })
        await record(
          trx,
          this.ctx,
          audited({ by: actor.id, at: nowIso }, 'auth.passkey_add', { type: 'user', id: actor.id }, { name: row.name }),
        )
        return repo.toPasskey(row)
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('conflict', 'This passkey is already registered')
      throw error
    }
  }

  async rename(actor: Actor, id: number, name: string): Promise<Passkey> {
    const row = await retrying(() => repo.renamePasskey(this.ctx.db, actor.id, id, name.trim() || name))
    if (!row) throw notFound('Passkey')
    return repo.toPasskey(row)
  }

  async remove(actor: Actor, id: number): Promise<void> {
    const nowIso = this.ctx.clock.iso()
    await withTransaction(this.ctx.db, async (trx) => {
      const name = await repo.deletePasskey(trx, actor.id, id)
      if (name === undefined) throw notFound('Passkey')
      await record(
        trx,
        this.ctx,
        audited({ by: actor.id, at: nowIso }, 'auth.passkey_remove', { type: 'user', id: actor.id }, { name }),
      )
    })
  }

  /**
   * Options for a sign-in with any passkey of this site (discoverable: no
   * credential list, no account named). Each writes a challenge row for
   * anyone who asks, so they are limited per client address in the database
   * (S21, LIMITS.passkeyOptions): 429 before anything is written.
   */
  async loginOptions(rp: RelyingParty, ip: string) {
    const { db, clock } = this.ctx
    await spend(this.ctx, LIMITS.passkeyOptions, addressKey(ip))
    const options = await (
      await webauthn()
    ).generateAuthenticationOptions({
      rpID: rp.id,
      userVerification: 'required',
      timeout: CHALLENGE_SECONDS * 1000,
    })
    const now = clock.now()
    await retrying(() =>
      repo.saveChallenge(
        db,
        {
          challenge_hash: hash(options.challenge),
          purpose: 'login',
          stake_id: null,
          user_id: null,
          expires_at: addSeconds(now, CHALLENGE_SECONDS).toISOString(),
        },
        now.toISOString(),
      ),
    )
    return options
  }

  /**
   * Signs in with a passkey: the credential names its user (found across
   * stakes, then this request runs in the user's stake). Counted before it
   * is checked (S4): per account once the credential is known (else per
   * unknown credential) and per address. An unknown credential, a
   * deactivated user, a wrong signature, origin, challenge or counter all
   * answer the same 401.
   */
  async login(
    credential: { id: string } & Record<string, unknown>,
    rp: RelyingParty,
    client: ClientInfo,
    shared: boolean,
  ): Promise<IssuedSession> {
    const { db, clock } = this.ctx
    const nowIso = clock.iso()
    const found = await acrossStakes(() => repo.findCredential(db, credential.id))
    if (found) setScope({ stakeId: found.stake_id })
    const account = found?.email_key ?? `passkey:${hash(credential.id)}`
    const keys = { account, ip: client.ip }
    const admission = await this.attempts.admit(keys)

    // Deactivated, or roster-only (no email: nobody signs in as them).
    let reason: string | null = found
      ? found.active && found.email_key !== null
        ? null
        : 'inactive'
      : 'unknown_passkey'
    let newCounter = 0
    if (found && reason === null) {
      try {
        const result = await (
          await webauthn()
        ).verifyAuthenticationResponse({
          response: credential as unknown as AuthenticationResponseJSON,
          expectedChallenge: (challenge) => repo.spendChallenge(db, hash(challenge), 'login', null, nowIso),
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          credential: {
            id: found.credential_id,
            publicKey: new Uint8Array(Buffer.from(found.public_key, 'base64url')),
            counter: Number(found.counter),
            transports: found.transports ? (JSON.parse(found.transports) as AuthenticatorTransport[]) : undefined,
          },
          requireUserVerification: true,
        })
        if (!result.verified) reason = 'passkey_failed'
        else newCounter = result.authenticationInfo.newCounter
      } catch {
        reason = 'passkey_failed'
      }
      if (
        reason === null &&
        !(await retrying(() => repo.recordUse(db, found.id, Number(found.counter), newCounter, nowIso)))
      ) {
        reason = 'passkey_failed' // another sign-in moved the counter first: a cloned authenticator
      }
    }
    if (reason !== null) {
      const target = found ? ({ type: 'user', id: found.user_id } as const) : null
      await this.attempts.signInFailed(admission, target, { at: nowIso, reason, ip: client.ip })
      throw unauthorized(FAILED)
    }
    await this.attempts.succeeded(keys)
    return this.auth.startSession(found!.user_id, client, shared)
  }
}

/** "Passkey" and the authenticator's kind, when the browser said (the user renames it anyway). */
function defaultName(credential: unknown): string {
  const attachment = (credential as { authenticatorAttachment?: string }).authenticatorAttachment
  return attachment === 'platform' ? 'Passkey on this device' : 'Passkey'
}
