import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { signedIn } from '../test/factories.ts'
import { useTestApp } from '../test/harness.ts'
import { startReceiver } from '../test/webhooks.fixtures.ts'

const body = (url: string) => ({ url, events: ['comment'] })

/** S11: which addresses and ports a webhook may target, and what a failed delivery tells. */
describe('S11 webhook targets (WEBHOOK_ALLOW_PRIVATE off)', () => {
  const t = useTestApp({})
  const manager = () => signedIn(t, { permissions: ['proposals.manage'] })

  it('refuses non-global IPv6 ranges and IPv6 carrying a non-public IPv4 address with 422', async () => {
    const { as } = await manager()
    for (const url of [
      'http://[64:ff9b:1::a9fe:a9fe]/', // local-use NAT64 → 169.254.169.254
      'http://[::ffff:0:7f00:1]/', // SIIT → 127.0.0.1
      'http://[64:ff9b::a9fe:a9fe]/', // well-known NAT64 → 169.254.169.254
      'http://[2002:a00:1::1]/', // 6to4 → 10.0.0.1
      'http://[5f00::1]/',
      'http://[3fff::1]/',
      'http://[100::1]/',
      'http://[4000::1]/',
    ]) {
      const res = await as('POST', '/api/webhooks', body(url))
      assert.equal(res.statusCode, 422, `${url}: ${res.body}`)
      assert.equal(res.json().detail[0].type, 'url_private', url)
    }
    for (const url of ['http://[64:ff9b::808:808]/', 'https://[2606:4700::1111]/'])
      assert.equal((await as('POST', '/api/webhooks', body(url))).statusCode, 201, url)
  })

  it('refuses ports other than 80 and 443 with 422, on create and on update', async () => {
    const { as } = await manager()
    for (const url of ['http://1.1.1.1:25/', 'https://93.184.216.34:8443/x', 'http://93.184.216.34:22/']) {
      const res = await as('POST', '/api/webhooks', body(url))
      assert.equal(res.statusCode, 422, `${url}: ${res.body}`)
      assert.deepEqual(res.json().detail[0].loc, ['body', 'url'])
      assert.equal(res.json().detail[0].type, 'url_port')
    }
    const created = await as('POST', '/api/webhooks', body('http://93.184.216.34:80/x'))
    assert.equal(created.statusCode, 201, created.body)
    assert.equal((await as('POST', '/api/webhooks', body('https://93.184.216.34:443/x'))).statusCode, 201)
    const put = await as('PUT', `/api/webhooks/${created.json().id}`, body('http://1.1.1.1:25/'))
    assert.equal(put.statusCode, 422)
  })
})

describe('S11 webhook targets: WEBHOOK_PORTS', () => {
  const t = useTestApp({ WEBHOOK_PORTS: '8443, 9443' })

  it('allows the listed ports only (the list replaces 80 and 443)', async () => {
    const { as } = await signedIn(t, { permissions: ['proposals.manage'] })
    assert.equal((await as('POST', '/api/webhooks', body('https://93.184.216.34:8443/x'))).statusCode, 201)
    assert.equal((await as('POST', '/api/webhooks', body('https://93.184.216.34:9443/x'))).statusCode, 201)
    assert.equal((await as('POST', '/api/webhooks', body('https://93.184.216.34/x'))).statusCode, 422)
  })
})

/**
 * With WEBHOOK_ALLOW_PRIVATE=true (so the tests can reach 127.0.0.1): any
 * port is allowed, and a failed delivery's last_error is one of three generic
 * texts, whatever the socket said.
 */
describe('S11 webhook targets: WEBHOOK_ALLOW_PRIVATE=true and delivery errors', () => {
  const t = useTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '300' })
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let silent: net.Server
  let silentPort: number
  let closedPort: number
  const sockets = new Set<net.Socket>()

  before(async () => {
    receiver = await startReceiver()
    // Accepts connections and never answers: a timeout.
    silent = net.createServer((socket) => sockets.add(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    silentPort = (silent.address() as AddressInfo).port
    // A port that was just free: connecting is refused.
    const probe = http.createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    closedPort = (probe.address() as AddressInfo).port
    await new Promise<void>((resolve) => probe.close(() => resolve()))
  })
  after(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise<void>((resolve) => silent.close(() => resolve()))
    await receiver.close()
  })

  it('lifts the address and port rules together: loopback on any port is 201', async () => {
    const { as } = await signedIn(t, { permissions: ['proposals.manage'] })
    assert.equal((await as('POST', '/api/webhooks', body('http://127.0.0.1:25/'))).statusCode, 201)
    assert.equal((await as('POST', '/api/webhooks', body('http://1.1.1.1:25/'))).statusCode, 201)
  })

  it('a failed test delivery says "could not connect", "timed out" or the HTTP status, nothing else', async () => {
    const { as } = await signedIn(t, { permissions: ['proposals.manage'] })
    const tryTest = async (url: string) => {
      const created = await as('POST', '/api/webhooks', body(url))
      assert.equal(created.statusCode, 201, created.body)
      const res = await as('POST', `/api/webhooks/${created.json().id}/test`)
      assert.equal(res.statusCode, 200, res.body)
      return res.json() as { status: string; last_status_code: number | null; last_error: string | null }
    }
    const refused = await tryTest(`http://127.0.0.1:${closedPort}/`)
    assert.deepEqual(
      [refused.status, refused.last_status_code, refused.last_error],
      ['pending', null, 'could not connect'],
    )
    const unresolvable = await tryTest('http://no-such-host.invalid/')
    assert.equal(unresolvable.last_error, 'could not connect')
    const timedOut = await tryTest(`http://127.0.0.1:${silentPort}/`)
    assert.deepEqual([timedOut.last_status_code, timedOut.last_error], [null, 'timed out'])
    receiver.fail('/gone', 1, 410)
    const answered = await tryTest(receiver.url('/gone'))
    assert.deepEqual([answered.last_status_code, answered.last_error], [410, 'HTTP 410'])
  })
})
