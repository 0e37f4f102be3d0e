import { PASSWORD_RESET_ANSWER, type PasswordResetRequested, type ResetLinkSent } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { addSeconds } from '../../clock.ts'
import { withTransaction } from '../../db/transaction.ts'
import { acrossStakes, setScope } from '../../db/stake-scope.ts'
import { AppError, conflict, forbidden, notFound } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import { effectivePermissionsOf } from '../users/permissions.repository.ts'
import { mayAdminister } from '../users/users.policy.ts'
import { audited, record } from '../../events/record.ts'
import { checkNewPassword } from '../auth/passwords.ts'
import { deleteUserSessions } from '../auth/sessions.repository.ts'
import { linkBase } from '../notifications/mail.compose.ts'
import { insertOutbox } from '../notifications/outbox.repository.ts'
import { forgetUserDevices } from '../push/push.repository.ts'
import { revokeFeed } from '../speaking/feed.repository.ts'
import { currentStakeSettings } from '../stakes/stakes.repository.ts'
import * as users from '../users/users.repository.ts'
import { addressKey, LIMITS, spend } from '../limits/limits.ts'
import { composeAccountMail } from './accounts.mail.ts'
import * as tokens from './tokens.repository.ts'

/** docs/api-reference.md §16's numbers. */
const RESET = {
  linkSeconds: 30 * 60,
  /**
   * A link an administrator hands over by hand (mail off) may wait for its
   * person longer than a mailed one, but not as long as an invitation
   * (docs/decisions.md, "Reset links from an administrator").
   */
  handedSeconds: 24 * 3600,
  windowSeconds: 3600,
  mailsPerAccount: 3,
  // Requests per client address: LIMITS.passwordReset (modules/limits/limits.ts), counted in the database.
  /**
   * The answer never comes sooner than this after the request arrived (real
   * time): the few writes a real account adds stay hidden below it even on a
   * loaded server (measured: 8–32 ms median of the whole request).
   */
  answerFloorMs: 250,
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

const resetUrl = (base: string, token: string) => `${base}/reset-password#${token}`

const invalidToken = () => new AppError(400, 'invalid_token', 'This link is unknown, used or expired')

/**
 * The forgotten password (docs/api-reference.md §16). A request answers the
 * same whatever the address, and does the same work either way (one user
 * lookup, then one short transaction that counts the address and reads the
 * account's recent links); only the token and outbox rows of a real account
 * differ, and the answer's floor (RESET.answerFloorMs) covers them.
 */
export class PasswordResetService {
  constructor(private readonly ctx: AppContext) {}

  async request(email: string, ip: string): Promise<PasswordResetRequested> {
    const started = performance.now()
    try {
      await this.requestNow(email, ip)
    } finally {
      await sleep(RESET.answerFloorMs - (performance.now() - started))
    }
    return { detail: PASSWORD_RESET_ANSWER, mail: this.ctx.config.smtpUrl !== null }
  }

  private async requestNow(email: string, ip: string): Promise<void> {
    const { db, clock, config } = this.ctx
    const now = clock.now()
    const nowIso = now.toISOString()
    const since = addSeconds(now, -RESET.windowSeconds).toISOString()
    const user = await acrossStakes(() => users.findUserByEmail(db, users.emailKey(email)))
    if (user) setScope({ stakeId: user.stake_id })
    const address = user?.email ?? null
    const eligible = user !== undefined && Boolean(user.active) && address !== null && config.smtpUrl !== null
    const token = tokens.newLinkToken()
    await withTransaction(db, async (trx) => {
      // The address's count is a write in every case: both cases commit one transaction that wrote.
      await spend(this.ctx, LIMITS.passwordReset, addressKey(ip), trx)
      // Read in both cases, whether or not a message follows.
      const [sent, stake] = await Promise.all([
        tokens.countTokensSince(trx, user?.id ?? 0, 'password_reset', since),
        currentStakeSettings(trx),
      ])
      // A fourth request within the hour is answered alike and sends nothing (no 429: that would tell).
      if (!eligible || sent >= RESET.mailsPerAccount) return
      await tokens.voidTokens(trx, user.id, 'password_reset', nowIso)
      await tokens.insertToken(trx, {
        user_id: user.id,
        purpose: 'password_reset',
        token_hash: tokens.hashLinkToken(token),
        created_at: nowIso,
        expires_at: addSeconds(now, RESET.linkSeconds).toISOString(),
      })
      const link = resetUrl(linkBase(config), token)
      await insertOutbox(trx, [
        composeAccountMail(
          'password_reset',
          user.language,
          { id: user.id, email: address!, fname: user.fname },
          stake.name,
          link,
          nowIso,
        ),
      ])
    })
  }

  /**
   * An administrator's reset (docs/api-reference.md §16): a reset link mailed
   * to the person or, with mail off, handed back to pass on (as an
   * invitation's). The old password keeps working until the link is used, and
   * no password is ever read off the administrator's screen.
   */
  async issueByAdministrator(actor: Actor, userId: number, requestBase: string): Promise<ResetLinkSent> {
    const { db, clock, config } = this.ctx
    const target = await users.findUserById(db, userId)
    if (!target) throw notFound('User')
    // S2: only someone holding all the user's permissions hands out a way into the account.
    if (userId !== actor.id && !mayAdminister(actor.permissions, await effectivePermissionsOf(db, userId)))
      throw forbidden('This user holds permissions you do not hold')
    const email = target.email
    if (!email) throw conflict('no_email', 'This person has no email address and never signs in')
    if (!target.active) throw conflict('inactive', 'This user is deactivated: reactivate them first')
    const mail = config.smtpUrl !== null
    const now = clock.now()
    const nowIso = now.toISOString()
    const token = tokens.newLinkToken()
    const link = resetUrl(mail ? linkBase(config) : (config.publicUrl ?? requestBase), token)
    await withTransaction(db, async (trx) => {
      await tokens.voidTokens(trx, userId, 'password_reset', nowIso)
      await tokens.insertToken(trx, {
        user_id: userId,
        purpose: 'password_reset',
        token_hash: tokens.hashLinkToken(token),
        created_at: nowIso,
        expires_at: addSeconds(now, mail ? RESET.linkSeconds : RESET.handedSeconds).toISOString(),
      })
      if (mail) {
        const stake = await currentStakeSettings(trx)
        await insertOutbox(trx, [
          composeAccountMail(
            'password_reset',
            target.language,
            { id: userId, email, fname: target.fname },
            stake.name,
            link,
            nowIso,
          ),
        ])
      }
      await record(
        trx,
        this.ctx,
        audited(
          { by: actor.id, at: nowIso },
          'user.password_reset',
          { type: 'user', id: userId },
          { link: true, mailed: mail },
        ),
      )
    })
    return mail ? { sent: true } : { sent: false, url: link }
  }

  /** Sets the new password, spends the token, ends every session (and the calendar feed, S13). */
  async confirm(token: string, newPassword: string): Promise<void> {
    const { db, clock, hasher } = this.ctx
    if (!tokens.LINK_TOKEN.test(token)) throw invalidToken()
    const nowIso = clock.iso()
    const row = await acrossStakes(() =>
      tokens.findLiveToken(db, tokens.hashLinkToken(token), 'password_reset', nowIso),
    )
    if (!row) throw invalidToken()
    setScope({ stakeId: row.stake_id })
    checkNewPassword(newPassword)
    const password_hash = await hasher.hash(newPassword)
    await withTransaction(db, async (trx) => {
      if (!(await tokens.spendToken(trx, row.id, nowIso))) throw invalidToken()
      const user = await users.updateUser(trx, row.user_id, { password_hash, force_password_reset: false }, nowIso)
      if (!user || !user.active) throw invalidToken()
      await tokens.voidTokens(trx, row.user_id, 'password_reset', nowIso)
      await tokens.voidTokens(trx, row.user_id, 'invitation', nowIso) // the account is in use now
      await deleteUserSessions(trx, row.user_id)
      await revokeFeed(trx, row.user_id)
      await forgetUserDevices(trx, row.user_id) // S18
      await record(
        trx,
        this.ctx,
        audited({ by: row.user_id, at: nowIso }, 'auth.password_reset', { type: 'user', id: row.user_id }),
      )
    })
  }
}
