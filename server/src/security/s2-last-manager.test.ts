import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../test/harness.ts'
import { ALL_PERMISSIONS, signedIn } from '../test/factories.ts'
import { expectError } from '../test/callings.fixtures.ts'

/** S2: the last active holder of users.manage cannot lose it by any path (409 last_manager). */
describe('S2 the last user manager', () => {
  const t = useTestApp()

  it('cannot remove his own direct grant nor deactivate himself; a second manager makes both possible', async () => {
    const only = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const grants = `/api/users/${only.user.id}/permissions`
    expectError(await only.as('PUT', grants, { permissions: ['callings.manage'] }), 409, 'last_manager')
    assert.deepEqual((await only.as('GET', grants)).json().permissions, ALL_PERMISSIONS)
    const self = { email: only.user.email, fname: 'A', lname: 'B', active: false }
    expectError(await only.as('PUT', `/api/users/${only.user.id}`, self), 409, 'last_manager')

    await signedIn(t, { permissions: ['users.manage'] })
    assert.equal((await only.as('PUT', grants, { permissions: ['callings.manage'] })).statusCode, 200)
  })

  it('two managers removing their own grants at once: one wins, one manager remains', async () => {
    const a = await signedIn(t, { permissions: ['users.manage'] })
    const b = await signedIn(t, { permissions: ['users.manage'] })
    // Everyone else loses the grant first, so a and b are the last two.
    const others = await t.database.db
      .selectFrom('user_permissions')
      .select('user_id')
      .where('permission', '=', 'users.manage')
      .execute()
    for (const { user_id } of others) {
      if (user_id !== a.user.id && user_id !== b.user.id) {
        await t.database.db
          .deleteFrom('user_permissions')
          .where('user_id', '=', user_id)
          .where('permission', '=', 'users.manage')
          .execute()
      }
    }
    const results = await Promise.all([
      a.as('PUT', `/api/users/${a.user.id}/permissions`, { permissions: [] }),
      b.as('PUT', `/api/users/${b.user.id}/permissions`, { permissions: [] }),
    ])
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 409])
    expectError(
      results.find((r) => r.statusCode === 409)!,
      409,
      'last_manager',
    )
    const left = await t.database.db
      .selectFrom('user_permissions')
      .select('user_id')
      .where('permission', '=', 'users.manage')
      .execute()
    assert.equal(left.length, 1)
  })
})
