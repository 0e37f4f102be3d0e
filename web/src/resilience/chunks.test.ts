/**
 * The retry and reload-once rules of chunks.ts (the browser parts are
 * covered by e2e/resilience.spec.ts). Run with `npm run test:unit -w web`.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mayReload, RELOAD_WINDOW_MS, withRetry } from './chunks.ts'

describe('page code loading', () => {
  it('retries a failed load after each backoff delay, then gives up with the last error', async () => {
    const waits: number[] = []
    let calls = 0
    const flaky = async () => {
      calls += 1
      if (calls < 3) throw new TypeError(`fail ${calls}`)
      return 'module'
    }
    assert.equal(await withRetry(flaky, [10, 20, 30], async (ms) => void waits.push(ms)), 'module')
    assert.deepEqual(waits, [10, 20])

    waits.length = 0
    calls = 0
    const broken = async () => {
      calls += 1
      throw new TypeError(`fail ${calls}`)
    }
    await assert.rejects(
      withRetry(broken, [10, 20], async (ms) => void waits.push(ms)),
      /fail 3/,
    )
    assert.deepEqual(waits, [10, 20])
  })

  it('reloads onto a new version only when no reload happened within the window', () => {
    const now = 1_000_000_000
    assert.equal(mayReload(null, now), true)
    assert.equal(mayReload(String(now - 1000), now), false)
    assert.equal(mayReload(String(now - RELOAD_WINDOW_MS + 1), now), false)
    assert.equal(mayReload(String(now - RELOAD_WINDOW_MS), now), true)
    assert.equal(mayReload('not a number', now), true)
    // a marker from the future (clock changed) does not block forever
    assert.equal(mayReload(String(now + 60_000), now), true)
  })
})
