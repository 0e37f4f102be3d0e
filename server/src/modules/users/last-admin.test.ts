import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../test/harness.ts'
import { signedIn } from '../../test/factories.ts'

// Its own file: the rule counts every active holder of users.manage in the database.
describe('the last active user manager', () => {
  const t = useTestApp()

  it('two managers deactivating each other at once: exactly one wins, one manager remains (409 last_manager)', async () => {
    const a = await signedIn(t, { permissions: ['users.manage'] })
    const b = await signedIn(t, { permissions: ['users.manage'] })
    const body = (u: typeof a.user) => ({ email: u.email, fname: u.fname, lname: u.lname, active: false })
    const [byA, byB] = await Promise.all([
      a.as('PUT', `/api/users/${b.user.id}`, body(b.user)),
      b.as('PUT', `/api/users/${a.user.id}`, body(a.user)),
    ])
    const statuses = [byA.statusCode, byB.statusCode].sort()
    assert.equal(statuses.filter((s) => s === 200).length, 1, `statuses ${statuses}`)
    const loser = byA.statusCode === 200 ? byB : byA
    // The loser was either refused by the rule or already signed out by the winner.
    assert.ok(loser.statusCode === 409 || loser.statusCode === 401, `loser ${loser.statusCode}`)
    if (loser.statusCode === 409) assert.equal(loser.json().code, 'last_manager')
    const active = await t.database.db.selectFrom('users').select('id').where('active', '=', true).execute()
    assert.equal(active.length, 1)
  })

  it('nobody can deactivate themselves even when another manager exists (409)', async () => {
    const a = await signedIn(t, { permissions: ['users.manage'] })
    await signedIn(t, { permissions: ['users.manage'] })
    const res = await a.as('PUT', `/api/users/${a.user.id}`, {
      email: a.user.email,
      fname: 'A',
      lname: 'B',
      active: false,
    })
    assert.equal(res.statusCode, 409)
  })
})
