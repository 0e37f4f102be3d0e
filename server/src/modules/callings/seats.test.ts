import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Calling } from '@stake/contract'
import { useTestApp } from '../../test/harness.ts'
import { createUser, seat, signedIn } from '../../test/factories.ts'
import { syncHighCouncilSeats } from './callings.repository.ts'
import { expectError, makeCalling, systemCallingId } from '../../test/callings.fixtures.ts'

describe('High Councilor seats follow HIGH_COUNCIL_SEATS', () => {
  const t = useTestApp({ HIGH_COUNCIL_SEATS: '5' })

  const highCouncil = async (): Promise<Calling> => {
    const { as } = await signedIn(t)
    return (await as('GET', `/api/callings/${await systemCallingId(t, 'high_councilor')}`)).json()
  }
  const shape = (c: Calling) => ({
    max: c.max_slots,
    slots: c.slots.map((s) => (s.filled ? `${s.slot_id}*` : String(s.slot_id))),
  })

  it('has HIGH_COUNCIL_SEATS slots at start-up', async () => {
    assert.deepEqual(shape(await highCouncil()), { max: 5, slots: ['1', '2', '3', '4', '5'] })
  })

  it('raising adds empty slots; lowering removes only empty trailing slots and keeps a filled seat', async () => {
    const db = t.database.db
    await syncHighCouncilSeats(db, t.database.dialect, 8)
    assert.deepEqual(shape(await highCouncil()), { max: 8, slots: ['1', '2', '3', '4', '5', '6', '7', '8'] })
    const user = await createUser(t)
    await seat(t, 'high_councilor', user.id, 7)
    await syncHighCouncilSeats(db, t.database.dialect, 3)
    assert.deepEqual(shape(await highCouncil()), { max: 7, slots: ['1', '2', '3', '4', '5', '6', '7*'] })
    await db.updateTable('calling_slots').set({ user_id: null }).where('user_id', '=', user.id).execute()
    await syncHighCouncilSeats(db, t.database.dialect, 3)
    assert.deepEqual(shape(await highCouncil()), { max: 3, slots: ['1', '2', '3'] })
  })

  it('is idempotent and safe to run from several instances at once', async () => {
    const db = t.database.db
    await Promise.all([
      syncHighCouncilSeats(db, t.database.dialect, 6),
      syncHighCouncilSeats(db, t.database.dialect, 6),
      syncHighCouncilSeats(db, t.database.dialect, 6),
    ])
    await syncHighCouncilSeats(db, t.database.dialect, 6)
    assert.deepEqual(shape(await highCouncil()), { max: 6, slots: ['1', '2', '3', '4', '5', '6'] })
  })
})

describe('the last user manager cannot be unseated', () => {
  const t = useTestApp()

  it('refuses (409 last_manager) a release or a grant change that would leave nobody with users.manage', async () => {
    // The only holder of users.manage holds it through the stake presidency.
    const president = await signedIn(t)
    await seat(t, 'stake_president', president.user.id)
    const presidency = await systemCallingId(t, 'stake_president')
    expectError(await president.as('DELETE', `/api/callings/${presidency}/1`), 409, 'last_manager')

    // Hand users.manage to a user-made calling's holder; now the president may go.
    const council = await makeCalling(president.as, { permissions: ['users.manage', 'callings.manage'] })
    const successor = await signedIn(t)
    assert.equal(
      (await president.as('PUT', `/api/callings/${council.id}/1`, { user_id: successor.user.id })).statusCode,
      200,
    )
    assert.equal((await president.as('DELETE', `/api/callings/${presidency}/1`)).statusCode, 204)

    // The successor is now the only one: neither the grant nor the seat may go.
    expectError(
      await successor.as('PUT', `/api/callings/${council.id}/permissions`, { permissions: ['callings.manage'] }),
      409,
      'last_manager',
    )
    expectError(await successor.as('DELETE', `/api/callings/${council.id}/1`), 409, 'last_manager')
    const me = (await successor.as('GET', '/api/auth/me')).json()
    assert.ok(me.permissions.includes('users.manage'))

    // Once someone else can manage users, the seat may go.
    await createUser(t, { permissions: ['users.manage'] })
    assert.equal((await successor.as('DELETE', `/api/callings/${council.id}/1`)).statusCode, 204)
  })
})

describe('concurrent changes cannot together unseat the last user managers', () => {
  const t = useTestApp()

  it('two releases at once of the only two users.manage seats: one 204, one 409 last_manager, every round', async () => {
    // Releasing a presidency seat needs all seven permissions (S3): the holders release their own.
    const [president, clerk] = [await signedIn(t), await signedIn(t)]
    const seats = [
      {
        key: 'stake_president',
        user: president.user.id,
        as: president.as,
        calling: await systemCallingId(t, 'stake_president'),
      },
      { key: 'stake_clerk', user: clerk.user.id, as: clerk.as, calling: await systemCallingId(t, 'stake_clerk') },
    ]
    await seat(t, 'stake_president', president.user.id)
    await seat(t, 'stake_clerk', clerk.user.id)
    for (let round = 0; round < 5; round++) {
      const results = await Promise.all(seats.map((s) => s.as('DELETE', `/api/callings/${s.calling}/1`)))
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [204, 409], results.map((r) => r.body).join(' | '))
      expectError(
        results.find((r) => r.statusCode === 409)!,
        409,
        'last_manager',
      )
      const released = seats[results.findIndex((r) => r.statusCode === 204)]!
      await seat(t, released.key, released.user)
    }
  })

  it('a grant change and a release at once that would together leave nobody with users.manage: one wins, one 409', async () => {
    const president = await signedIn(t)
    await t.database.db.deleteFrom('user_permissions').where('permission', '=', 'users.manage').execute()
    await t.database.db
      .updateTable('calling_slots')
      .set({ user_id: null, filled_at: null })
      .where('user_id', 'is not', null)
      .execute()
    await seat(t, 'stake_president', president.user.id)
    const council = await makeCalling(president.as, { permissions: ['users.manage'] })
    const holder = await createUser(t)
    assert.equal((await president.as('PUT', `/api/callings/${council.id}/1`, { user_id: holder.id })).statusCode, 200)
    const presidency = await systemCallingId(t, 'stake_president')
    const operator = await signedIn(t, { permissions: ['callings.manage'] })
    const results = await Promise.all([
      operator.as('PUT', `/api/callings/${council.id}/permissions`, { permissions: [] }),
      president.as('DELETE', `/api/callings/${presidency}/1`),
    ])
    const [grants, release] = results.map((r) => r.statusCode)
    const bodies = results.map((r) => r.body).join(' | ')
    assert.ok((grants === 200 && release === 409) || (grants === 409 && release === 204), bodies)
    expectError(
      results.find((r) => r.statusCode === 409)!,
      409,
      'last_manager',
    )
  })
})
