import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { ImportPreview, User, Ward } from '@stake/contract'
import { useTestApp } from '../../test/harness.ts'
import { ALL_PERMISSIONS, createUser, signedIn, unique } from '../../test/factories.ts'
import { expectError, type As } from '../../test/callings.fixtures.ts'
import { csv, postReport } from '../../test/imports.fixtures.ts'

/**
 * Possible matches (docs/api-reference.md §15): a report's name that extends
 * or shortens a user's first name is offered to the importer, never a silent
 * new user and never a silent release.
 */
describe('imports: possible matches are confirmed or rejected before applying', () => {
  const t = useTestApp()
  let admin: { token: string; as: As }
  before(async () => {
    const a = await signedIn(t, { permissions: ALL_PERMISSIONS })
    admin = { token: a.token, as: a.as }
  })
  const makeWard = async (): Promise<Ward> => {
    const res = await admin.as('POST', '/api/wards/', { name: unique('Ward '), start_time: 600 })
    assert.equal(res.statusCode, 201, res.body)
    return res.json()
  }
  const preview = async (body: string, query: string) => {
    const res = await postReport(t, admin.token, body, 'text/csv', query)
    assert.equal(res.statusCode, 201, res.body)
    return res.json() as ImportPreview
  }
  const usersNamed = async (lname: string): Promise<User[]> =>
    ((await admin.as('GET', `/api/users?q=${encodeURIComponent(lname)}&limit=200`)).json() as User[]).filter(
      (u) => u.lname === lname,
    )

  it('a preferred first name: offered as the seated user; no release until answered; accepted, nothing new', async () => {
    const ward = await makeWard()
    const last = unique('Woodruff')
    const president = unique('Elders Quorum President ')
    const first = await preview(
      csv([
        ['Position', 'Name', 'Sustained'],
        [president, `${last}, Samuel B`, '6 Apr 2025'],
      ]),
      `ward_id=${ward.id}`,
    )
    assert.equal((await admin.as('POST', `/api/imports/${first.id}/apply`)).statusCode, 200)
    const samuel = (await usersNamed(last))[0]!

    const shown = await preview(
      csv([
        ['Position', 'Name', 'Sustained'],
        [president, `${last}, Sam`, '6 Apr 2025'],
      ]),
      `ward_id=${ward.id}`,
    )
    const person = shown.changes.find((c) => c.target === 'user')!
    assert.equal(person.action, 'confirm')
    assert.deepEqual(person.candidate, { user_id: samuel.id, fname: 'Samuel B', lname: last })
    // Samuel keeps his seat while the importer decides: no release, no new user.
    assert.deepEqual(
      shown.changes.filter((c) => c.target === 'slot').map((c) => [c.action, c.user_id]),
      [['unchanged', samuel.id]],
    )
    expectError(await admin.as('POST', `/api/imports/${shown.id}/apply`), 409, 'confirm_pending')

    const answered = await admin.as('POST', `/api/imports/${shown.id}/matches`, { row: 1, accept: true })
    assert.equal(answered.statusCode, 200, answered.body)
    const after = answered.json() as ImportPreview
    assert.deepEqual(
      after.changes.map((c) => [c.target, c.action, c.user_id, c.match ?? null]),
      [
        ['user', 'unchanged', samuel.id, 'accepted'],
        ['slot', 'unchanged', samuel.id, null],
      ],
    )
    assert.deepEqual((await admin.as('GET', `/api/imports/${shown.id}`)).json().changes, after.changes)
    assert.equal((await admin.as('POST', `/api/imports/${shown.id}/apply`)).statusCode, 200)
    assert.deepEqual(
      (await usersNamed(last)).map((u) => u.fname),
      ['Samuel B'],
    )
  })

  it('a middle name added: rejected, the person is new and the seat filled; a row without a candidate → 422', async () => {
    const ward = await makeWard()
    const last = unique('Alley')
    const raelyn = await createUser(t, { fname: 'Raelyn', lname: last })
    const coordinator = unique('Compassionate Service Coordinator ')
    const shown = await preview(
      csv([
        ['Position', 'Name', 'Sustained'],
        [coordinator, `${last}, Raelyn Kay`, '7 Dec 2025'],
        [coordinator, `${last}, Zebulon`, '7 Dec 2025'],
      ]),
      `ward_id=${ward.id}`,
    )
    const offered = shown.changes.filter((c) => c.action === 'confirm')
    assert.deepEqual(
      offered.map((c) => [c.row, c.candidate?.user_id]),
      [[1, raelyn.id]],
    )
    expectError(await admin.as('POST', `/api/imports/${shown.id}/matches`, { row: 2, accept: true }), 422)
    const res = await admin.as('POST', `/api/imports/${shown.id}/matches`, { row: 1, accept: false })
    assert.equal(res.statusCode, 200, res.body)
    const after = res.json() as ImportPreview
    assert.deepEqual(
      after.changes.filter((c) => c.target === 'user').map((c) => [c.row, c.action, c.match ?? null]),
      [
        [1, 'create', 'rejected'],
        [2, 'create', null],
      ],
    )
    assert.equal((await admin.as('POST', `/api/imports/${shown.id}/apply`)).statusCode, 200)
    assert.deepEqual((await usersNamed(last)).map((u) => u.fname).sort(), ['Raelyn', 'Raelyn Kay', 'Zebulon'])
  })
})
