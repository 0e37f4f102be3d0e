import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { AuditEntry, Permission } from '@stake/contract'
import { parseBound, visibleEntry } from './audit.policy.ts'

describe('audit policy: parseBound', () => {
  it('takes a date as a whole day in the stake time zone, across daylight-saving changes', () => {
    assert.equal(parseBound('2031-01-11', 'from', 'UTC'), '2031-01-11T00:00:00.000Z')
    assert.equal(parseBound('2031-01-11', 'to', 'UTC'), '2031-01-11T23:59:59.999Z')
    assert.equal(parseBound('2031-01-11', 'from', 'America/Denver'), '2031-01-11T07:00:00.000Z')
    assert.equal(parseBound('2031-01-11', 'to', 'America/Denver'), '2031-01-12T06:59:59.999Z')
    // 2026-03-08 has 23 hours in Denver (clocks go forward at 02:00).
    assert.equal(parseBound('2026-03-08', 'from', 'America/Denver'), '2026-03-08T07:00:00.000Z')
    assert.equal(parseBound('2026-03-08', 'to', 'America/Denver'), '2026-03-09T05:59:59.999Z')
    assert.equal(parseBound('2024-12-31', 'to', 'Europe/Madrid'), '2024-12-31T22:59:59.999Z')
    assert.equal(parseBound('2024-02-29', 'from', 'UTC'), '2024-02-29T00:00:00.000Z')
  })

  it('takes an RFC 3339 date-time with seconds and an offset', () => {
    assert.equal(parseBound('2031-01-11T10:00:00Z', 'from', 'UTC'), '2031-01-11T10:00:00.000Z')
    assert.equal(parseBound('2031-01-11t10:00:00.5z', 'to', 'UTC'), '2031-01-11T10:00:00.500Z')
    assert.equal(parseBound('2031-01-11T10:00:00-07:00', 'to', 'UTC'), '2031-01-11T17:00:00.000Z')
  })

  it('refuses anything else', () => {
    for (const bad of [
      '2023-02-29',
      '2031-02-30',
      '2031-00-10',
      '0999-01-01',
      '2031-1-1',
      '20310111',
      '2031-01-11T10:00Z',
      '2031-01-11T10:00:00',
      '2031-01-11 10:00:00Z',
      '2031-01-11T24:00:00Z',
      '2031-01-11T10:60:00Z',
      '2031-01-11T10:00:60Z',
      '2031-01-11T10:00:00+24:00',
      '2031-01-11T10:00:00+05:60',
      'today',
      '',
    ]) {
      assert.equal(parseBound(bad, 'from', 'UTC'), undefined, bad)
    }
  })
})

describe('audit policy: visibleEntry (S9)', () => {
  const entry = (target_type: string | null, detail: Record<string, unknown>): AuditEntry => ({
    id: 1,
    at: '2031-01-11T10:00:00.000Z',
    actor_id: 2,
    anonymous_actor: null,
    action: 'proposal.vote',
    target_type,
    target_id: 3,
    detail,
  })
  const vote = {
    fname: 'Juan',
    lname: 'Pérez',
    proposed_calling: 'Clerk',
    ward_id: 4,
    stage: 'sp_approval',
    approved: false,
  }
  const perms = (...p: Permission[]) => new Set(p)

  it('shows a proposal entry whole to proposals.manage', () => {
    assert.deepEqual(visibleEntry(entry('proposal', vote), perms('users.manage', 'proposals.manage')).detail, vote)
  })

  it("keeps a proposal's names, calling, vote and reasons from other readers", () => {
    assert.deepEqual(visibleEntry(entry('proposal', vote), perms('users.manage', 'proposals.view')).detail, {
      ward_id: 4,
      stage: 'sp_approval',
    })
    const decline = { fname: 'J', lname: 'P', from: 'interview', reason: 'Personal', changes: { fname: {} } }
    assert.deepEqual(visibleEntry(entry('proposal', decline), perms('users.manage')).detail, { from: 'interview' })
  })

  it('leaves other entries alone', () => {
    const user = { email: 'a@example.org', fname: 'Ann', lname: 'Lee' }
    assert.deepEqual(visibleEntry(entry('user', user), perms('users.manage')).detail, user)
    assert.deepEqual(visibleEntry(entry(null, { reason: 'unknown_account' }), perms('users.manage')).detail, {
      reason: 'unknown_account',
    })
  })
})
