import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../test/harness.ts'
import { ALL_PERMISSIONS, createUser, login, seat, signedIn, unique } from '../test/factories.ts'
import { expectError } from '../test/callings.fixtures.ts'

/** S2: administering another user needs every permission they hold; only users.manage changes an email. */
describe('S2 user administration by privilege subset', () => {
  const t = useTestApp()
  let lesser: Awaited<ReturnType<typeof signedIn>> // users.manage only
  let greater: Awaited<ReturnType<typeof signedIn>> // every permission
  let president: Awaited<ReturnType<typeof createUser>>

  before(async () => {
    lesser = await signedIn(t, { permissions: ['users.manage'] })
    greater = await signedIn(t, { permissions: ALL_PERMISSIONS })
    president = await createUser(t)
    await seat(t, 'stake_president', president.id)
  })

  it('a users.manage-only administrator cannot reset the stake president’s password, email, active flag or grants', async () => {
    const url = `/api/users/${president.id}`
    expectError(await lesser.as('PATCH', `${url}/password`, { new_password: 'a fresh passphrase 1' }), 403, 'forbidden')
    expectError(
      await lesser.as('PUT', url, { email: 'attacker@example.org', fname: president.fname, lname: president.lname }),
      403,
      'forbidden',
    )
    expectError(
      await lesser.as('PUT', url, {
        email: president.email,
        fname: president.fname,
        lname: president.lname,
        active: false,
      }),
      403,
      'forbidden',
    )
    expectError(await lesser.as('PUT', `${url}/permissions`, { permissions: [] }), 403, 'forbidden')
    // Nothing changed: the president still signs in with his own password and address.
    await login(t, president)
    const row = await t.database.db
      .selectFrom('users')
      .select(['email', 'active', 'force_password_reset'])
      .where('id', '=', president.id)
      .executeTakeFirstOrThrow()
    assert.deepEqual(
      { ...row, active: Boolean(row.active), force_password_reset: Boolean(row.force_password_reset) },
      {
        email: president.email,
        active: true,
        force_password_reset: false,
      },
    )
  })

  it('an administrator holding everything the target holds may do all of it', async () => {
    const url = `/api/users/${president.id}`
    assert.equal(
      (await greater.as('PATCH', `${url}/password`, { new_password: 'a fresh passphrase 2' })).statusCode,
      200,
    )
    const email = `${unique('pres')}@example.org`
    assert.equal(
      (await greater.as('PUT', url, { email, fname: president.fname, lname: president.lname })).statusCode,
      200,
    )
    president.email = email
    president.password = 'a fresh passphrase 2'
  })

  it('a users.manage-only administrator still administers users whose permissions are a subset of his', async () => {
    const plain = await createUser(t, { permissions: ['users.manage'] })
    assert.equal(
      (await lesser.as('PATCH', `/api/users/${plain.id}/password`, { new_password: 'another passphrase 3' }))
        .statusCode,
      200,
    )
    assert.equal((await lesser.as('PUT', `/api/users/${plain.id}/permissions`, { permissions: [] })).statusCode, 200)
    const email = `${unique('plain')}@example.org`
    assert.equal(
      (await lesser.as('PUT', `/api/users/${plain.id}`, { email, fname: 'P', lname: 'Q', active: false })).statusCode,
      200,
    )
  })

  it('a user cannot change his own email (403); resending the same one is fine', async () => {
    const me = await signedIn(t)
    const body = { fname: 'Me', lname: 'Myself' }
    expectError(
      await me.as('PUT', `/api/users/${me.user.id}`, { ...body, email: greater.user.email }),
      403,
      'forbidden',
    )
    expectError(
      await me.as('PUT', `/api/users/${me.user.id}`, { ...body, email: `${unique('new')}@example.org` }),
      403,
      'forbidden',
    )
    assert.equal(
      (await me.as('PUT', `/api/users/${me.user.id}`, { ...body, email: me.user.email.toUpperCase() })).statusCode,
      200,
    )
  })
})
