import { inStake } from '../db/stake-scope.ts'
import { createStake } from '../modules/stakes/stakes.service.ts'
import { createUser, injectAs, login, unique, type TestUser } from './factories.ts'
import type { TestApp } from './harness.ts'

/**
 * Another stake on the test's deployment, made as the operator makes one
 * (`stake create`), with its first administrator signed in: `{stakeId, admin, as}`.
 */
export async function otherStake(t: TestApp, name = unique('Stake ')) {
  const password = `pw-${unique()}-${unique()}`
  const admin = { email: `${unique('admin')}@example.org`, fname: 'Other', lname: 'Administrator', password }
  const { stakeId, adminId } = await createStake(
    t.database.db,
    t.database.dialect,
    t.config,
    {
      name,
      admin: {
        email: admin.email,
        fname: admin.fname,
        lname: admin.lname,
        password_hash: await t.hasher.hash(password),
        force_password_reset: false,
      },
    },
    t.clock.iso(),
  )
  const { token } = await login(t, admin)
  return { stakeId, admin: { ...admin, id: adminId } as TestUser, token, as: injectAs(t, token) }
}

/** A user of stake `stakeId` (factories.ts's createUser, in that stake). */
export const createUserIn = (t: TestApp, stakeId: number, options: Parameters<typeof createUser>[1] = {}) =>
  inStake(stakeId, () => createUser(t, options))
