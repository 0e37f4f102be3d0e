import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createUser } from '../test/factories.ts'
import { useTestApp } from '../test/harness.ts'
import { precompiled, precompiledValue } from './precompiled.ts'

const nameOf = precompiled(['id'], (db, p) => db.selectFrom('users').select(['fname', 'lname']).where('id', '=', p.id as unknown as number))
const fnameOf = precompiledValue<string, 'id'>(['id'], (db, p) => db.selectFrom('users').select('fname').where('id', '=', p.id as unknown as number))

/**
 * Precompiled statements run directly on the SQLite connection when no
 * transaction is open on it (db/database.ts#directSqlite). While one is open,
 * they must wait for it like any other query: run beside it, they would join
 * it and read its uncommitted rows.
 */
describe('precompiled statements', () => {
  const t = useTestApp()

  it('answers rows and single values, and undefined without a row', async () => {
    const user = await createUser(t, { fname: 'Ada', lname: 'Lovelace' })
    assert.deepEqual(await nameOf(t.database.db, { id: user.id }), [{ fname: 'Ada', lname: 'Lovelace' }])
    assert.equal(await fnameOf(t.database.db, { id: user.id }), 'Ada')
    assert.deepEqual(await nameOf(t.database.db, { id: 2_000_000_000 }), [])
    assert.equal(await fnameOf(t.database.db, { id: 2_000_000_000 }), undefined)
  })

  it('never reads the uncommitted rows of an open transaction', async () => {
    const user = await createUser(t, { fname: 'Committed' })
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let written!: () => void
    const inside = new Promise<void>((resolve) => (written = resolve))

    const transaction = t.database.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('users').set({ fname: 'Uncommitted' }).where('id', '=', user.id).execute()
        written()
        await gate
        throw new Error('roll back')
      })
      .catch((error: Error) => error.message)

    await inside
    const reads = Promise.all([fnameOf(t.database.db, { id: user.id }), nameOf(t.database.db, { id: user.id })])
    release()
    assert.equal(await transaction, 'roll back')
    const [value, rows] = await reads
    assert.equal(value, 'Committed')
    assert.equal(rows[0]?.fname, 'Committed')
  })
})
