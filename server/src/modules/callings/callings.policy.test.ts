import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Permission } from '@stake/contract'
import { canSeeCalling, isSystemDefined, unseatable } from './callings.policy.ts'

describe('callings policy', () => {
  it('anonymous callers see public callings only; signed-in callers see all', () => {
    assert.equal(canSeeCalling(true, { is_public: 1 }), true)
    assert.equal(canSeeCalling(true, { is_public: 0 }), false)
    assert.equal(canSeeCalling(true, { is_public: false }), false)
    assert.equal(canSeeCalling(false, { is_public: false }), true)
  })

  it('seating needs every granted permission; lists what is missing', () => {
    const held = new Set<Permission>(['callings.manage', 'proposals.submit'])
    assert.deepEqual(unseatable(held, []), [])
    assert.deepEqual(unseatable(held, ['proposals.submit']), [])
    assert.deepEqual(unseatable(held, ['proposals.submit', 'proposals.view', 'users.manage']), [
      'proposals.view',
      'users.manage',
    ])
    assert.deepEqual(unseatable(new Set(), ['callings.manage']), ['callings.manage'])
  })

  it('system-defined reads booleans from either database', () => {
    assert.equal(isSystemDefined({ system_defined: 1 }), true)
    assert.equal(isSystemDefined({ system_defined: true }), true)
    assert.equal(isSystemDefined({ system_defined: 0 }), false)
  })
})
