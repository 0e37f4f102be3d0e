import type { InvitationInfo, InvitationSent, PendingInvitation } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { Executor } from '../../db/types.ts'
import { addSeconds } from '../../clock.ts'
import { withTransaction } from '../../db/transaction.ts'
import { acrossStakes, setScope } from '../../db/stake-scope.ts'
import { conflict, forbidden, notFound } from '../../errors.ts'
import { audited, record } from '../../events/record.ts'
import type { Actor } from '../../actor.ts'
import { AuthService, type ClientInfo, type IssuedSession } from '../auth/auth.service.ts'
import { checkNewPassword } from '../auth/passwords.ts'
import { deleteUserSessions } from '../auth/sessions.repository.ts'
import { linkBase } from '../notifications/mail.compose.ts'
import { insertOutbox } from '../notifications/outbox.repository.ts'
import { currentStakeSettings } from '../stakes/stakes.repository.ts'
import { effectivePermissionsOf } from '../users/permissions.repository.ts'
import { mayAdminister } from '../users/users.policy.ts'
import * as users from '../users/users.repository.ts'
import { composeAccountMail } from './accounts.mail.ts'
import * as tokens from './tokens.repository.ts'

/** An invitation's link lives 7 days (docs/api-reference.md §16). */
const INVITATION_SECONDS = 7 * 24 * 3600

const welcomeUrl = (base: string, token: string) => `${base}/welcome#${token}`

const invitationNotFound = () => notFound('Invitation')

/**
 * Issues a user's invitation inside the caller's transaction (an invitation
 * on its own, or a user created with `invite: true`): voids the previous
 * one, keeps the new token's hash, and mails the Welcome link through the
 * outbox — or, when mail is off, hands the link back for the administrator to
 * pass on. `requestBase`: the request's own origin, for that link alone when
 * PUBLIC_URL is unset; a mailed link never takes the request's Host header.
 */
export async function issueInvitation(
  trx: Executor,
  ctx: AppContext,
  by: number,
  target: { id: number; email: string; fname: string; language: string },
  requestBase: string,
): Promise<InvitationSent> {
  const { clock, config } = ctx
  const mail = config.smtpUrl !== null
  const token = tokens.newLinkToken()
  const now = clock.now()
  const nowIso = now.toISOString()
  const link = welcomeUrl(mail ? linkBase(config) : (config.publicUrl ?? requestBase), token)
  await tokens.voidTokens(trx, target.id, 'invitation', nowIso)
  await tokens.insertToken(trx, {
    user_id: target.id,
    purpose: 'invitation',
    token_hash: tokens.hashLinkToken(token),
    created_at: nowIso,
    expires_at: addSeconds(now, INVITATION_SECONDS).toISOString(),
  })
  if (mail) {
    const { name } = await currentStakeSettings(trx)
    await insertOutbox(trx, [
      composeAccountMail(
        'invitation',
        target.language,
        { id: target.id, email: target.email, fname: target.fname },
        name,
        link,
        nowIso,
      ),
    ])
  }
  await record(trx, ctx, audited({ by, at: nowIso }, 'user.invite', { type: 'user', id: target.id }, { mailed: mail }))
  return mail ? { sent: true } : { sent: false, url: link }
}

/**
 * Invitations (docs/api-reference.md §16): a users.manage holder invites a
 * user by mail (or gets the link to pass on when mail is off); the link's
 * Welcome page sets the password and signs the user in. One live invitation
 * per user: a new one voids the old.
 */
export class InvitationsService {
  private readonly auth: AuthService

  constructor(private readonly ctx: AppContext) {
    this.auth = new AuthService(ctx)
  }

  /** `requestBase`: where the request came (the link handed back when mail is off, without PUBLIC_URL). */
  async invite(actor: Actor, userId: number, requestBase: string): Promise<InvitationSent> {
    const { db } = this.ctx
    const target = await users.findUserById(db, userId)
    if (!target) throw notFound('User')
    // S2: only someone holding all the user's permissions hands out a way into the account.
    if (userId !== actor.id && !mayAdminister(actor.permissions, await effectivePermissionsOf(db, userId))) {
      throw forbidden('This user holds permissions you do not hold')
    }
    const email = target.email
    if (!email) throw conflict('no_email', 'This person has no email address: add one before inviting')
    if (!target.active) throw conflict('inactive', 'This user is deactivated: reactivate them before inviting')

    return withTransaction(db, (trx) => issueInvitation(trx, this.ctx, actor.id, { ...target, email }, requestBase))
  }

  /** Invitations sent and not accepted yet, for the users page. */
  async pending(): Promise<PendingInvitation[]> {
    const now = this.ctx.clock.iso()
    const rows = await tokens.listPendingInvitations(this.ctx.db)
    return rows.map((r) => ({
      user_id: r.user_id,
      sent_at: r.created_at,
      expires_at: r.expires_at,
      expired: r.expires_at <= now,
    }))
  }

  /** The token's row and user, found across stakes; the request continues in the user's stake. */
  private async live(token: string) {
    if (!tokens.LINK_TOKEN.test(token)) return undefined
    const now = this.ctx.clock.iso()
    const row = await acrossStakes(() =>
      tokens.findLiveToken(this.ctx.db, tokens.hashLinkToken(token), 'invitation', now),
    )
    if (row) setScope({ stakeId: row.stake_id })
    return row
  }

  async lookup(token: string): Promise<InvitationInfo> {
    const row = await this.live(token)
    if (!row) throw invitationNotFound()
    return { email: row.email as string, fname: row.fname, lname: row.lname }
  }

  /** Sets the password, spends the token and signs the user in (a session like any other). */
  async accept(token: string, password: string, client: ClientInfo): Promise<IssuedSession> {
    const { db, clock, hasher } = this.ctx
    const row = await this.live(token)
    if (!row) throw invitationNotFound()
    checkNewPassword(password, 'password')
    const password_hash = await hasher.hash(password)
    const nowIso = clock.iso()
    await withTransaction(db, async (trx) => {
      // The only winner: a second request with the same link finds it spent.
      if (!(await tokens.spendToken(trx, row.id, nowIso))) throw invitationNotFound()
      const user = await users.updateUser(trx, row.user_id, { password_hash, force_password_reset: false }, nowIso)
      if (!user || !user.active) throw invitationNotFound()
      await tokens.voidTokens(trx, row.user_id, 'password_reset', nowIso)
      await deleteUserSessions(trx, row.user_id)
      await record(
        trx,
        this.ctx,
        audited({ by: row.user_id, at: nowIso }, 'auth.invitation_accept', { type: 'user', id: row.user_id }),
      )
    })
    return this.auth.startSession(row.user_id, client)
  }
}
