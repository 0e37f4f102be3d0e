import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { ConfigError, parseConfig } from '../config.ts'
import { dialect, useTestApp, type TestApp } from '../test/harness.ts'
import { createUser, injectAs } from '../test/factories.ts'

const here = path.dirname(fileURLToPath(import.meta.url))

/** S7: TRUST_PROXY is false, a hop count or proxy addresses; "true" stops the server. */
describe('S7 proxies', () => {
  const byHops = useTestApp({ TRUST_PROXY: '1' })
  const byAddress = useTestApp({ TRUST_PROXY: '127.0.0.1/8, ::1' })
  const direct = useTestApp()

  /** Signs in with a forged X-Forwarded-For in front of the proxy's own entry; answers the session's recorded address. */
  async function recordedAddress(t: TestApp): Promise<string | null> {
    const user = await createUser(t)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.9, 198.51.100.7' },
      payload: new URLSearchParams({ username: user.email, password: user.password }).toString(),
    })
    assert.equal(res.statusCode, 200, res.body)
    const sessions = await injectAs(t, res.json().access_token)('GET', '/api/auth/sessions')
    return sessions.json()[0].ip
  }

  it('a hop count or an address list takes the address the trusted proxy saw, never one the client wrote', async () => {
    assert.equal(await recordedAddress(byHops), '198.51.100.7')
    assert.equal(await recordedAddress(byAddress), '198.51.100.7')
    assert.equal(await recordedAddress(direct), '127.0.0.1')
  })

  it('accepts false, 1..10 and addresses/CIDRs; refuses "true" and anything else with one line', () => {
    assert.equal(parseConfig({ TRUST_PROXY: 'false' }).trustProxy, false)
    assert.equal(parseConfig({ TRUST_PROXY: '10' }).trustProxy, 10)
    assert.deepEqual(parseConfig({ TRUST_PROXY: '10.0.0.0/8,2001:db8::1' }).trustProxy, ['10.0.0.0/8', '2001:db8::1'])
    for (const value of ['true', 'TRUE', '11', '-1', 'proxy.local', '10.0.0.1/40', '1.2.3.4/8/9']) {
      assert.throws(
        () => parseConfig({ TRUST_PROXY: value }),
        (e: Error) => e instanceof ConfigError && /TRUST_PROXY/.test(e.message) && !e.message.includes('\n'),
        value,
      )
    }
  })

  it(
    'TRUST_PROXY=true stops the server at start with a one-line message',
    { skip: dialect !== 'sqlite' && 'a process test: SQLite pass only' },
    () => {
      const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, '..', 'main.ts')], {
        env: { ...process.env, TRUST_PROXY: 'true', DATABASE_URL: 'sqlite::memory:' },
        encoding: 'utf8',
      })
      assert.notEqual(result.status, 0)
      assert.match(result.stderr.trim(), /^Configuration error: TRUST_PROXY=true/)
      assert.equal(result.stderr.trim().split('\n').length, 1)
    },
  )
})
