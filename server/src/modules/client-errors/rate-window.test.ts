import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { RateWindow } from './rate-window.ts'

describe('RateWindow', () => {
  it('allows limit events per window and says how long to wait', () => {
    const w = new RateWindow(2, 10_000)
    assert.equal(w.hit('a', 0), null)
    assert.equal(w.hit('a', 1000), null)
    assert.equal(w.hit('a', 1500), 9)
    assert.equal(w.hit('a', 9999), 1)
    assert.equal(w.hit('a', 10_000), null)
  })

  it('keeps at most maxKeys windows, dropping expired ones first, then the oldest', () => {
    const w = new RateWindow(1, 10_000, 3)
    w.hit('a', 0)
    w.hit('b', 5000)
    w.hit('c', 6000)
    w.hit('d', 11_000) // a has expired and goes
    assert.equal(w.size, 3)
    assert.equal(w.hit('b', 11_000), 4, 'b is still limited')
    w.hit('e', 12_000) // nothing expired: the oldest (b) goes
    assert.equal(w.size, 3)
    assert.equal(w.hit('b', 12_000), null, 'b starts afresh')
    assert.equal(w.hit('d', 12_000), 9, 'd is still limited')
  })
})
