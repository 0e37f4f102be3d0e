import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Me } from '@stake/contract'
import { buildApp } from '../../app.ts'
import type { FastifyTypebox } from '../../http.ts'
import { createAdmin, injectAs, login, signedIn, unique } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'

type As = ReturnType<typeof injectAs>

/**
 * Every request reads its session, user and effective permissions from the
 * database (plugins/auth.ts). Each test reads first, changes one thing, and
 * reads again: the change must show on the very next request — on this
 * instance and on a second one over the same database.
 */
describe('auth check: every change to a user shows on the next request', () => {
  const t = useTestApp()
  let admin: As
  let other: FastifyTypebox

  before(async () => {
    admin = injectAs(t, (await login(t, await createAdmin(t))).token)
    other = await buildApp({ config: t.config, db: t.database.db, dialect: t.database.dialect, clock: t.clock })
    await other.ready()
  })
  after(async () => {
    await other.close()
  })

  /** The same user through both instances, each having read /auth/me once. */
  async function watched(options: Parameters<typeof signedIn>[1] = {}) {
    const s = await signedIn(t, options)
    const viaOther = injectAs({ ...t, app: other }, s.token)
    for (const as of [s.as, viaOther]) assert.equal((await as('GET', '/api/auth/me')).statusCode, 200)
    return { ...s, both: [s.as, viaOther] as const }
  }
  const me = async (as: As): Promise<Me> => {
    const res = await as('GET', '/api/auth/me')
    assert.equal(res.statusCode, 200, res.body)
    return res.json()
  }

  it('answers the same profile twice when nothing changed', async () => {
    const u = await watched({ permissions: ['wards.manage'] })
    for (const as of u.both) assert.deepEqual(await me(as), await me(as))
  })

  it('grants and withdraws a direct permission at once', async () => {
    const u = await watched()
    for (const as of u.both)
      assert.equal((await as('POST', '/api/wards', { name: unique('W'), start_time: 600 })).statusCode, 403)

    const put = await admin('PUT', `/api/users/${u.user.id}/permissions`, { permissions: ['wards.manage'] })
    assert.equal(put.statusCode, 200, put.body)
    for (const as of u.both) {
      assert.deepEqual((await me(as)).permissions, ['wards.manage'])
      assert.equal((await as('POST', '/api/wards', { name: unique('W'), start_time: 600 })).statusCode, 201)
    }

    await admin('PUT', `/api/users/${u.user.id}/permissions`, { permissions: [] })
    for (const as of u.both) {
      assert.deepEqual((await me(as)).permissions, [])
      assert.equal((await as('POST', '/api/wards', { name: unique('W'), start_time: 600 })).statusCode, 403)
    }
  })

  it('follows a filled and a released slot: callings and their grants', async () => {
    const u = await watched()
    const calling = (
      await admin('POST', '/api/callings', { name: unique('Calling'), max_slots: 1, permissions: ['proposals.view'] })
    ).json()
    assert.equal((await admin('PUT', `/api/callings/${calling.id}/1`, { user_id: u.user.id })).statusCode, 200)
    for (const as of u.both) {
      const profile = await me(as)
      assert.deepEqual(
        profile.callings.map((c) => [c.calling_id, c.slot_id, c.name]),
        [[calling.id, 1, calling.name]],
      )
      assert.deepEqual(profile.permissions, ['proposals.view'])
    }

    const renamed = unique('Renamed')
    assert.equal((await admin('PUT', `/api/callings/${calling.id}`, { name: renamed })).statusCode, 200)
    for (const as of u.both) assert.equal((await me(as)).callings[0]?.name, renamed)

    assert.equal((await admin('DELETE', `/api/callings/${calling.id}/1`)).statusCode, 204)
    for (const as of u.both) {
      const profile = await me(as)
      assert.deepEqual(profile.callings, [])
      assert.deepEqual(profile.permissions, [])
    }
  })

  it('shows an edited name, also when written straight to the database (the CLI)', async () => {
    const u = await watched()
    const fname = unique('Edited')
    assert.equal(
      (await admin('PUT', `/api/users/${u.user.id}`, { email: u.user.email, fname, lname: u.user.lname, active: true }))
        .statusCode,
      200,
    )
    for (const as of u.both) assert.equal((await me(as)).fname, fname)

    await t.database.db.updateTable('users').set({ lname: 'Direct' }).where('id', '=', u.user.id).execute()
    for (const as of u.both) assert.equal((await me(as)).lname, 'Direct')
  })

  it('stops the token at once when an administrator resets the password (sessions ended)', async () => {
    const u = await watched()
    const reset = await admin('PATCH', `/api/users/${u.user.id}/password`, { new_password: `new-${unique()}-pass` })
    assert.equal(reset.statusCode, 200, reset.body)
    // The reset also ended the user's sessions: their token stops on both instances.
    for (const as of u.both) assert.equal((await as('GET', '/api/auth/me')).statusCode, 401)
  })

  it('shows force_password_reset set directly in the database, with the 403 guard', async () => {
    const u = await watched({ permissions: ['wards.manage'] })
    await t.database.db.updateTable('users').set({ force_password_reset: true }).where('id', '=', u.user.id).execute()
    for (const as of u.both) {
      assert.equal((await me(as)).force_password_reset, true)
      const res = await as('GET', '/api/users')
      assert.equal(res.statusCode, 403)
      assert.equal(res.json().code, 'password_change_required')
    }
  })

  it('stops a deactivated user and a logged-out session at once', async () => {
    const deactivated = await watched()
    const put = await admin('PUT', `/api/users/${deactivated.user.id}`, {
      email: deactivated.user.email,
      fname: deactivated.user.fname,
      lname: deactivated.user.lname,
      active: false,
    })
    assert.equal(put.statusCode, 200, put.body)
    for (const as of deactivated.both) assert.equal((await as('GET', '/api/auth/me')).statusCode, 401)

    const loggedOut = await watched()
    assert.equal((await injectAs({ ...t, app: other }, loggedOut.token)('POST', '/api/auth/logout')).statusCode, 204)
    for (const as of loggedOut.both) assert.equal((await as('GET', '/api/auth/me')).statusCode, 401)
  })

  it('keeps two sessions of one user apart: ending one leaves the other', async () => {
    const u = await watched()
    const second = injectAs(t, (await login(t, u.user)).token)
    assert.equal((await me(second)).id, u.user.id)
    assert.equal((await u.as('POST', '/api/auth/logout')).statusCode, 204)
    assert.equal((await u.as('GET', '/api/auth/me')).statusCode, 401)
    assert.equal((await me(second)).id, u.user.id)
  })
})
