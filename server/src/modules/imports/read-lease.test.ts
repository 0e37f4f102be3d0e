import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { PDFDocument } from 'pdf-lib'
import { createSecondInstance, useTestApp } from '../../test/harness.ts'
import { ALL_PERMISSIONS, signedIn, unique } from '../../test/factories.ts'
import { expectError } from '../../test/callings.fixtures.ts'
import { csv, MEMBER_LIST_HEADER, postReport } from '../../test/imports.fixtures.ts'
import { waitFor } from '../../test/process.ts'
import { otherStake } from '../../test/stakes.fixtures.ts'
import { readsInProgress } from './imports.limits.ts'
import { acrossStakes } from '../../db/stake-scope.ts'
import { LIMITS } from '../limits/limits.ts'

/**
 * One report read at a time per stake holds across instances (WORKERS, or
 * several servers on one database): the lease is kept in the database.
 */
describe('one import read per stake, across instances', () => {
  const t = useTestApp({}, { shareable: true })
  let second: Awaited<ReturnType<typeof createSecondInstance>>
  before(async () => {
    second = await createSecondInstance(t)
  })
  after(async () => second?.close())

  const tiny = (last: string) => csv([MEMBER_LIST_HEADER, [`${last}, Ada`, 'F', '40', '1 Jan 1986', '', '']])
  const slowPdf = async () => {
    const doc = await PDFDocument.create()
    for (let page = 0; page < 60; page++) {
      const p = doc.addPage([612, 792])
      for (let line = 0; line < 40; line++)
        p.drawText(`Name ${page}-${line}    Phone`, { x: 40, y: 750 - line * 16, size: 9 })
    }
    return Buffer.from(await doc.save())
  }

  it('a read under way at one instance refuses the same stake at another (429), not another stake; given back after', async () => {
    const a = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const other = await otherStake(t)
    const slow = postReport(t, a.token, await slowPdf(), 'application/pdf')
    assert.ok(await waitFor(() => readsInProgress() > 0, 20_000), 'the first report was never read')
    const elsewhere = postReport({ ...t, app: second.app }, a.token, tiny(unique('Busy')), 'text/csv')
    const otherStakes = postReport({ ...t, app: second.app }, other.token, tiny(unique('Free')), 'text/csv')
    const [refused, free] = await Promise.all([elsewhere, otherStakes])
    expectError(refused, 429, 'import_limit')
    assert.match(refused.body, /one import is read at a time/)
    assert.equal(free.statusCode, 201, free.body)
    assert.equal((await slow).statusCode, 201)
    const later = await postReport({ ...t, app: second.app }, a.token, tiny(unique('Later')), 'text/csv')
    assert.equal(later.statusCode, 201, later.body)
  })

  it('a lease held by another process (its row in the database) refuses the stake until its window ends', async () => {
    const a = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const key = String(t.config.defaultStakeId)
    const windowEnd = new Date(t.clock.now().getTime() + 60_000).toISOString()
    await acrossStakes(() =>
      t.database.db
        .insertInto('rate_limits')
        .values({ bucket: LIMITS.importRead.bucket, key, hits: 1, window_end: windowEnd })
        .execute(),
    )
    expectError(await postReport(t, a.token, tiny(unique('Held')), 'text/csv'), 429, 'import_limit')
    t.clock.advance(61)
    const after = await postReport(t, a.token, tiny(unique('Freed')), 'text/csv')
    assert.equal(after.statusCode, 201, after.body)
  })
})
