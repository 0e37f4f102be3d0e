import { PASSWORD_RESET_ANSWER } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { addSeconds } from '../../clock.ts'
import { withTransaction } from '../../db/transaction.ts'
import { acrossStakes, setScope } from '../../db/stake-scope.ts'
import { AppError } from '../../errors.ts'
import { audited, record } from '../../events/record.ts'
import { checkNewPassword } from '../auth/passwords.ts'
import { deleteUserSessions } from '../auth/sessions.repository.ts'
import { linkBase } from '../notifications/mail.compose.ts'
import { insertOutbox } from '../notifications/outbox.repository.ts'
import { revokeFeed } from '../speaking/feed.repository.ts'
import { currentStakeSettings } from '../stakes/stakes.repository.ts'
import * as users from '../users/users.repository.ts'
import { addressKey, LIMITS, spend } from '../limits/limits.ts'
import { composeAccountMail } from './accounts.mail.ts'
import * as tokens from './tokens.repository.ts'

/** docs/api-reference.md §16's numbers. */
export const RESET = {
  linkSeconds: 30 * 60,
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

export const resetUrl = (base: string, token: string) => `${base}/reset-password#${token}`

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

  async request(email: string, ip: string): Promise<{ detail: string }> {
    const started = performance.now()
    try {
      await this.requestNow(email, ip)
    } finally {
      await sleep(RESET.answerFloorMs - (performance.now() - started))
    }
    return { detail: PASSWORD_RESET_ANSWER }
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
      await record(
        trx,
        this.ctx,
        audited({ by: row.user_id, at: nowIso }, 'auth.password_reset', { type: 'user', id: row.user_id }),
      )
    })
  }
}
