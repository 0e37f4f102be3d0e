import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../test/harness.ts'
import { ALL_PERMISSIONS, createUser, seat, signedIn, unique } from '../test/factories.ts'
import { expectError, systemCallingId } from '../test/callings.fixtures.ts'
import { createWard, submit } from '../test/proposals.fixtures.ts'

/** S3: filling or releasing a seat needs every power the seat carries; nobody seats himself without all seven. */
describe('S3 seats carry powers', () => {
  const t = useTestApp()
  let bishopCalling: number
  let presidentCalling: number
  let admin: Awaited<ReturnType<typeof signedIn>>

  before(async () => {
    bishopCalling = await systemCallingId(t, 'bishop')
    presidentCalling = await systemCallingId(t, 'stake_president')
    admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
  })

  const bishopOf = async (ward: number) =>
    (
      await t.database.db
        .selectFrom('calling_slots')
        .select('user_id')
        .where('calling_id', '=', bishopCalling)
        .where('slot_id', '=', ward)
        .executeTakeFirstOrThrow()
    ).user_id

  it('callings.manage + proposals.submit cannot seat himself as a ward’s bishop, by either route, nor read its proposals', async () => {
    const ward = await createWard(t.database.db)
    const proposal = await submit(admin.as, ward)
    const climber = await signedIn(t, { permissions: ['callings.manage', 'wards.manage', 'proposals.submit'] })
    // Even holding everything a Bishop seat carries, nobody but a holder of all seven seats himself.
    const viewer = await signedIn(t, {
      permissions: ['callings.manage', 'wards.manage', 'proposals.submit', 'proposals.view'],
    })
    for (const { as, user } of [climber, viewer]) {
      expectError(await as('PUT', `/api/callings/${bishopCalling}/${ward}`, { user_id: user.id }), 403, 'forbidden')
      expectError(
        await as('PUT', `/api/wards/${ward}`, { name: unique('W'), start_time: 600, bishop_id: user.id }),
        403,
        'forbidden',
      )
      expectError(
        await as('POST', '/api/wards/', { name: unique('W'), start_time: 600, bishop_id: user.id }),
        403,
        'forbidden',
      )
    }
    assert.equal(await bishopOf(ward), null)
    expectError(await climber.as('GET', `/api/calling-kanban/proposals/${proposal.id}`), 404, 'not_found')
  })

  it('a Bishop seat needs proposals.view besides the calling’s grant; with it, someone else may be seated', async () => {
    const ward = await createWard(t.database.db)
    const bishop = await createUser(t)
    const submitOnly = await signedIn(t, { permissions: ['callings.manage', 'proposals.submit'] })
    expectError(
      await submitOnly.as('PUT', `/api/callings/${bishopCalling}/${ward}`, { user_id: bishop.id }),
      403,
      'forbidden',
    )
    assert.equal(await bishopOf(ward), null)
    const viewer = await signedIn(t, { permissions: ['callings.manage', 'proposals.submit', 'proposals.view'] })
    assert.equal(
      (await viewer.as('PUT', `/api/callings/${bishopCalling}/${ward}`, { user_id: bishop.id })).statusCode,
      200,
    )
    // Releasing needs the same: the submit-only operator cannot take the seat away either.
    expectError(await submitOnly.as('DELETE', `/api/callings/${bishopCalling}/${ward}`), 403, 'forbidden')
    assert.equal(await bishopOf(ward), bishop.id)
  })

  it('callings.manage alone cannot release (or fill) the stake president’s seat; all seven permissions can', async () => {
    const president = await createUser(t)
    await seat(t, 'stake_president', president.id)
    const operator = await signedIn(t, { permissions: ['callings.manage'] })
    expectError(await operator.as('DELETE', `/api/callings/${presidentCalling}/1`), 403, 'forbidden')
    const holder = await t.database.db
      .selectFrom('calling_slots')
      .select('user_id')
      .where('calling_id', '=', presidentCalling)
      .executeTakeFirstOrThrow()
    assert.equal(holder.user_id, president.id)
    assert.equal((await admin.as('DELETE', `/api/callings/${presidentCalling}/1`)).statusCode, 204)
    expectError(
      await operator.as('PUT', `/api/callings/${presidentCalling}/1`, { user_id: president.id }),
      403,
      'forbidden',
    )
  })

  it('an actor holding all seven permissions may seat himself', async () => {
    const ward = await createWard(t.database.db)
    assert.equal(
      (await admin.as('PUT', `/api/callings/${bishopCalling}/${ward}`, { user_id: admin.user.id })).statusCode,
      200,
    )
    assert.equal(await bishopOf(ward), admin.user.id)
  })
})
