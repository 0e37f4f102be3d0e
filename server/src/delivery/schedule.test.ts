import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { MAX_ATTEMPTS, nextAttemptAt } from './schedule.ts'

describe('delivery schedule', () => {
  it('tries at 0 s, 30 s, 2 min, 10 min, 1 h and 6 h after the event, then gives up', () => {
    const created = new Date('2026-03-01T12:00:00.000Z')
    const offsets = Array.from({ length: MAX_ATTEMPTS }, (_, made) => {
      const at = nextAttemptAt(created, made)
      assert.ok(at)
      return (at.getTime() - created.getTime()) / 1000
    })
    assert.deepEqual(offsets, [0, 30, 120, 600, 3600, 21600])
    assert.equal(nextAttemptAt(created, MAX_ATTEMPTS), null)
  })
})
