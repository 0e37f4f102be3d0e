import type { StakeSignup } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { isUniqueViolation } from '../../db/database.ts'
import { setScope } from '../../db/stake-scope.ts'
import { conflict, forbidden } from '../../errors.ts'
import { AuthService, type ClientInfo, type IssuedSession } from '../auth/auth.service.ts'
import { checkNewPassword } from '../auth/passwords.ts'
import { hashSecret } from '../auth/tokens.ts'
import { takenElsewhere } from '../limits/email-oracle.ts'
import { addressKey, LIMITS, spend } from '../limits/limits.ts'
import { signupEnabled, spendSignupCode, usableSignupCode } from './signup.repository.ts'
import { openStake } from './stakes.service.ts'

const badCode = () => forbidden('This signup code is unknown or used up')
const duplicateEmail = () => conflict('duplicate_email', 'A user with this email already exists')

/**
 * POST /stakes (docs/api-reference.md §14): with a signup code from the
 * operator (`npm run cli -- stake signup-code`), anyone creates a stake and is
 * signed in as its first administrator. A code's use is spent in the
 * transaction that creates the stake: of two signups racing for a code's last
 * use one gets 201, the other 403, and a refused signup (a taken email)
 * spends nothing.
 */
export class SignupService {
  private readonly auth: AuthService

  constructor(private readonly ctx: AppContext) {
    this.auth = new AuthService(ctx)
  }

  /** Whether the operator ever made a code: without one the route does not exist. */
  enabled(): Promise<boolean> {
    return signupEnabled(this.ctx.db)
  }

  /** Creates the stake and signs its first administrator in, in the new stake. */
  async signUp(body: StakeSignup, client: ClientInfo): Promise<IssuedSession> {
    const { ctx } = this
    // Counted once the body is valid (a malformed request is not an attempt), in the
    // database so every instance shares the count (S21, LIMITS.signup).
    await spend(ctx, LIMITS.signup, addressKey(client.ip))
    const { code, stake_name, email, fname, lname, password } = body
    const codeHash = hashSecret(code)
    if (!(await usableSignupCode(ctx.db, codeHash))) throw badCode()
    checkNewPassword(password, 'password')
    // S19: only a holder of a usable code learns whether an email is taken, and that at
    // most LIMITS.emailOracle times an hour per address (then 429); nothing is spent.
    if (await takenElsewhere(ctx, { address: client.ip }, email)) throw duplicateEmail()
    const password_hash = await ctx.hasher.hash(password) // outside the transaction: it may run again
    let created: { stakeId: number; adminId: number }
    try {
      created = await openStake(
        ctx.db,
        ctx.dialect,
        ctx.config,
        {
          name: stake_name,
          admin: {
            email: email.trim(),
            fname: fname.trim(),
            lname: lname.trim(),
            password_hash,
            force_password_reset: false,
          },
        },
        ctx.clock.iso(),
        {
          source: 'signup',
          first: async (trx) => {
            if (!(await spendSignupCode(trx, codeHash))) throw badCode()
          },
        },
      )
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateEmail() // taken meanwhile
      throw error
    }
    // Signed in as POST /auth/login signs in, in the new stake.
    setScope({ stakeId: created.stakeId })
    return this.auth.startSession(created.adminId, client)
  }
}
