import { currentStakeSettings } from '../stakes/stakes.repository.ts'
import type { CreateUserBody, Permission, UpdateUserBody, User, UserListQuery, UserSummary } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { isUniqueViolation } from '../../db/database.ts'
import { AppError, conflict, forbidden, invalid, notFound, PASSWORD_CHANGE_REQUIRED } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import { checkNewPassword, randomPassword } from '../auth/passwords.ts'
import { SignInAttempts } from '../auth/attempts.ts'
import { deleteUserSessions } from '../auth/sessions.repository.ts'
import {
  activeHolders,
  directPermissions,
  effectivePermissionsOf,
  replaceDirectPermissions,
  sortPermissions,
} from './permissions.repository.ts'
import * as repo from './users.repository.ts'
import { emailKey } from './users.repository.ts'
import type { Executor } from '../../db/types.ts'
import { canEditUser, canManageUsers, mayAdminister, ungrantable } from './users.policy.ts'
import { assertUserManagerRemains } from './last-manager.ts'
import { withTransaction } from '../../db/transaction.ts'
import { audited, record } from '../../events/record.ts'
import { fieldChanges, grantChanges } from '../../events/facts.ts'
import { forgetUserDevices } from '../push/push.repository.ts'
import { revokeFeed } from '../speaking/feed.repository.ts'
import { issueInvitation } from '../accounts/invitations.service.ts'
import type { InvitationSent } from '@stake/contract'
import { currentStakeId } from '../../db/stake-scope.ts'
import { takenElsewhere } from '../limits/email-oracle.ts'

const noEmail = () => conflict('no_email', 'This person has no email address, so cannot sign in')
const duplicateEmail = () => conflict('duplicate_email', 'A user with this email already exists')

/** The facts an audit entry keeps of a user: who, never a credential. */
const userFacts = (row: { email: string | null; fname: string; lname: string }) => ({
  email: row.email,
  fname: row.fname,
  lname: row.lname,
})

export class UsersService {
  constructor(private readonly ctx: AppContext) {}

  /** `requestBase`: the request's origin, for an invitation link handed back when mail is off (docs/api-reference.md §16). */
  async create(
    actor: Actor,
    body: CreateUserBody,
    requestBase = '',
  ): Promise<User & { temporary_password?: string; invitation?: InvitationSent }> {
    const email = body.email ?? null
    const invite = body.invite === true
    if (email === null && invite) throw noEmail()
    if (body.password !== undefined && email === null) {
      throw invalid(['body', 'password'], 'A person without an email cannot sign in, so has no password')
    }
    if (body.password !== undefined && invite) {
      throw invalid(['body', 'password'], 'An invited person chooses their own password')
    }
    // Signs in with a password now: given, or made here and shown once. An invited
    // person has none until accepting; a roster-only person (no email) never has one.
    const signsIn = email !== null && !invite
    const temporary = signsIn && body.password === undefined ? randomPassword() : null
    if (body.password !== undefined) checkNewPassword(body.password, 'password')
    await this.assertEmailFree(email)
    const password_hash = signsIn ? await this.ctx.hasher.hash(body.password ?? temporary!) : null
    try {
      // Created by an administrator: the user must choose their own password.
      const now = this.ctx.clock.iso()
      const created = await withTransaction(this.ctx.db, async (trx) => {
        // A new user speaks the stake's default language until choosing another.
        const { language } = await currentStakeSettings(trx)
        const row = await repo.insertUser(trx, {
          email,
          fname: body.fname,
          lname: body.lname,
          phone: body.phone ?? null,
          password_hash,
          force_password_reset: signsIn,
          language,
          now,
        })
        await record(
          trx,
          this.ctx,
          audited({ by: actor.id, at: now }, 'user.create', { type: 'user', id: row.id }, userFacts(row)),
        )
        // invite: true sends the invitation with the creation, in its transaction (§16).
        const invitation =
          invite && email !== null
            ? await issueInvitation(trx, this.ctx, actor.id, { ...row, email }, requestBase)
            : undefined
        return { row, invitation }
      })
      const user = repo.toUser(created.row)
      if (temporary) return { ...user, temporary_password: temporary }
      return created.invitation ? { ...user, invitation: created.invitation } : user
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateEmail()
      throw error
    }
  }

  /**
   * S19: another stake's email is 409 duplicate_email at most
   * LIMITS.emailOracle times an hour per stake (imports of the stake share
   * the count); past that any email not of this stake is 429. This stake's
   * own duplicates are left to the unique key (409 at insert).
   */
  private async assertEmailFree(email: string | null): Promise<void> {
    if (email !== null && (await takenElsewhere(this.ctx, { stakeId: currentStakeId() }, email))) throw duplicateEmail()
  }

  async list(actor: Actor, query: UserListQuery): Promise<{ rows: (User | UserSummary)[]; total: number }> {
    const manager = canManageUsers(actor.permissions)
    // Without users.manage: active users only, names only (enough to pick an interviewer).
    const filter = { q: query.q, active: manager ? query.active : true, searchEmail: manager }
    if (!manager && query.active === false) return { rows: [], total: 0 }
    const page = await repo.listUsers(this.ctx.db, filter, query.limit ?? 50, query.offset ?? 0)
    return { rows: page.rows.map(manager ? repo.toUser : repo.toUserSummary), total: page.total }
  }

  private async visibleUser(actor: Actor, id: number) {
    if (!canEditUser(actor.id, actor.permissions, id)) throw forbidden('You may only see your own user record')
    const row = await repo.findUserById(this.ctx.db, id)
    if (!row) throw notFound('User')
    return row
  }

  /** S2: another user's account is administered only by someone holding all their permissions. */
  private async assertMayAdminister(db: Executor, actor: Actor, id: number): Promise<void> {
    if (id === actor.id) return
    if (!mayAdminister(actor.permissions, await effectivePermissionsOf(db, id))) {
      throw forbidden('This user holds permissions you do not hold')
    }
  }

  async get(actor: Actor, id: number): Promise<User> {
    return repo.toUser(await this.visibleUser(actor, id))
  }

  async update(actor: Actor, id: number, body: UpdateUserBody): Promise<User> {
    const current = await this.visibleUser(actor, id)
    const manager = canManageUsers(actor.permissions)
    const activeChange = body.active !== undefined && body.active !== Boolean(current.active)
    if (activeChange && !manager) throw forbidden('Only a user manager may activate or deactivate users')
    if (activeChange && body.active === false && id === actor.id) {
      const lastManager = (await activeHolders(this.ctx.db, 'users.manage')).every((holder) => holder === id)
      throw lastManager
        ? conflict('last_manager', 'This would leave no active user who can manage users')
        : conflict('conflict', 'You cannot deactivate yourself')
    }
    // S2: only users.manage changes an email (a self-service change could probe which addresses exist).
    const emailChange = emailKey(body.email) !== current.email_key
    if (emailChange && !manager) throw forbidden('Only a user manager may change an email address')
    if (emailChange) await this.assertEmailFree(body.email ?? null)
    // Without an email nobody signs in: the password goes, and with it every session.
    const toRoster = body.email === null && current.email !== null
    const { db, dialect } = this.ctx
    try {
      return await withTransaction(db, async (trx) => {
        if (emailChange || activeChange) await this.assertMayAdminister(trx, actor, id)
        const row = await repo.updateUser(
          trx,
          id,
          {
            email: body.email,
            fname: body.fname,
            lname: body.lname,
            ...(body.phone !== undefined ? { phone: body.phone } : {}),
            ...(activeChange ? { active: body.active } : {}),
            ...(body.language ? { language: body.language } : {}),
            ...(toRoster ? { password_hash: null, force_password_reset: false } : {}),
          },
          this.ctx.clock.iso(),
        )
        if (!row) throw notFound('User')
        const who = { by: actor.id, at: row.updated_at }
        const changes = fieldChanges(current, row, ['email', 'fname', 'lname', 'phone', 'language'])
        if (changes) await record(trx, this.ctx, audited(who, 'user.update', { type: 'user', id }, { changes }))
        if (activeChange)
          await record(
            trx,
            this.ctx,
            audited(who, body.active ? 'user.reactivate' : 'user.deactivate', { type: 'user', id }),
          )
        if (toRoster && !(activeChange && body.active === false)) {
          await deleteUserSessions(trx, id)
          await revokeFeed(trx, id)
          await forgetUserDevices(trx, id)
          await assertUserManagerRemains(trx, dialect, [id])
        }
        if (activeChange && body.active === false) {
          await deleteUserSessions(trx, id)
          await revokeFeed(trx, id) // S13
          await forgetUserDevices(trx, id) // S18
          await assertUserManagerRemains(trx, dialect) // its lock comes last (ARCHITECTURE.md, Lock order)
        }
        return repo.toUser(row)
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateEmail()
      throw error
    }
  }

  /**
   * PATCH /users/{id}/password (docs/api-reference.md §3). Self: needs the old password,
   * clears the flag, ends the other sessions. A user manager on someone else:
   * sets the flag (they must choose their own) and ends all their sessions.
   */
  async changePassword(actor: Actor, id: number, oldPassword: string | undefined, newPassword: string): Promise<User> {
    const self = actor.id === id
    if (!self && actor.forcePasswordReset) throw PASSWORD_CHANGE_REQUIRED()
    if (!self && !canManageUsers(actor.permissions)) throw forbidden('You may only change your own password')
    const { db, hasher } = this.ctx
    const target = await repo.findUserById(db, id)
    if (!target) throw notFound('User')
    await this.assertMayAdminister(db, actor, id)
    // Nobody signs in without an email: a password would open nothing.
    if (target.email_key === null) throw noEmail()

    if (self) {
      if (oldPassword === undefined) throw invalid(['body', 'old_password'], 'Field required', 'missing')
      // A guess at the old password counts toward the account's sign-in limit (S4).
      const attempts = new SignInAttempts(this.ctx)
      const admission = await attempts.admit({ account: target.email_key })
      const right = target.password_hash ? await hasher.verify(target.password_hash, oldPassword) : false
      if (!right) {
        if (admission.locks.length > 0) {
          await withTransaction(db, (trx) => attempts.recordLocks(trx, admission, { type: 'user', id }))
        }
        throw new AppError(400, 'wrong_password', 'The current password is not correct')
      }
      await attempts.succeeded({ account: target.email_key })
    }
    checkNewPassword(newPassword)
    const unchanged = self
      ? oldPassword === newPassword
      : target.password_hash !== null && (await hasher.verify(target.password_hash, newPassword))
    if (unchanged) throw invalid(['body', 'new_password'], 'The new password must differ from the old one')

    const password_hash = await hasher.hash(newPassword)
    return withTransaction(db, async (trx) => {
      const row = await repo.updateUser(trx, id, { password_hash, force_password_reset: !self }, this.ctx.clock.iso())
      if (!row) throw notFound('User')
      const action = self ? 'user.password_change' : 'user.password_reset'
      await record(trx, this.ctx, audited({ by: actor.id, at: row.updated_at }, action, { type: 'user', id }))
      await deleteUserSessions(trx, id, self ? actor.sessionId : null)
      if (!self) await revokeFeed(trx, id) // S13
      await forgetUserDevices(trx, id) // S18: the user's own change too
      return repo.toUser(row)
    })
  }

  async getPermissions(actor: Actor, id: number): Promise<{ permissions: Permission[] }> {
    await this.visibleUser(actor, id)
    return { permissions: await directPermissions(this.ctx.db, id) }
  }

  async setPermissions(actor: Actor, id: number, next: Permission[]): Promise<{ permissions: Permission[] }> {
    const { db, dialect } = this.ctx
    return withTransaction(db, async (trx) => {
      if (!(await repo.lockUser(trx, id, dialect))) throw notFound('User')
      await this.assertMayAdminister(trx, actor, id)
      const current = await directPermissions(trx, id)
      const refused = ungrantable(actor.permissions, current, next)
      if (refused.length > 0) throw forbidden(`You cannot grant a permission you do not hold: ${refused.join(', ')}`)
      const wanted = sortPermissions(new Set(next))
      await replaceDirectPermissions(trx, id, wanted)
      const grants = grantChanges(current, wanted)
      if (grants)
        await record(
          trx,
          this.ctx,
          audited({ by: actor.id, at: this.ctx.clock.iso() }, 'user.grants_change', { type: 'user', id }, grants),
        )
      if (current.includes('users.manage') && !wanted.includes('users.manage')) {
        await assertUserManagerRemains(trx, dialect, [id])
      }
      return { permissions: wanted }
    })
  }
}
