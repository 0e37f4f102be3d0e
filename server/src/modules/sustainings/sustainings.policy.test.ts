import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Permission } from '@stake/contract'
import type { Viewer } from '../proposals/proposals.policy.ts'
import {
  canPresent,
  canReadSustainings,
  completesSustaining,
  isCalendarDate,
  presentableIn,
  todayIn,
} from './sustainings.policy.ts'

const viewer = (permissions: Permission[], bishopWardIds: number[] = []): Viewer => ({
  id: 1,
  permissions: new Set(permissions),
  roles: { presidency: false, highCouncilor: false, bishopWardIds },
})

describe('sustainings policy', () => {
  it('lets the ward bishop, proposals.view and proposals.manage read a ward list', () => {
    assert.equal(canReadSustainings(viewer(['proposals.submit'], [3]), 3), true)
    assert.equal(canReadSustainings(viewer(['proposals.submit'], [3]), 4), false)
    assert.equal(canReadSustainings(viewer(['proposals.view']), 4), true)
    assert.equal(canReadSustainings(viewer(['proposals.manage']), 4), true)
    assert.equal(canReadSustainings(viewer(['proposals.submit']), 4), false)
  })

  it('lets only the ward bishop or a manager present', () => {
    assert.equal(canPresent(viewer([], [3]), 3), true)
    assert.equal(canPresent(viewer([], [3]), 4), false)
    assert.equal(canPresent(viewer(['proposals.view']), 4), false)
    assert.equal(canPresent(viewer(['proposals.manage']), 4), true)
  })

  it('presents a ward-scope proposal only in its ward and completes stake ones when no ward is left', () => {
    assert.equal(presentableIn({ scope: 'ward', ward_id: 3 }, 3), true)
    assert.equal(presentableIn({ scope: 'ward', ward_id: 3 }, 4), false)
    assert.equal(presentableIn({ scope: 'stake', ward_id: 3 }, 4), true)
    assert.equal(completesSustaining('ward', 5), true)
    assert.equal(completesSustaining('stake', 1), false)
    assert.equal(completesSustaining('stake', 0), true)
  })

  it('accepts only real calendar dates and gives today in the stake time zone', () => {
    assert.equal(isCalendarDate('2026-03-01'), true)
    assert.equal(isCalendarDate('2026-02-30'), false)
    assert.equal(isCalendarDate('2026-13-01'), false)
    const lateUtc = new Date('2026-03-02T03:00:00Z')
    assert.equal(todayIn(lateUtc, 'UTC'), '2026-03-02')
    assert.equal(todayIn(lateUtc, 'America/Denver'), '2026-03-01')
  })
})
