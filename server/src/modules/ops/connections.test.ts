import assert from 'node:assert/strict'
import net from 'node:net'
import { after, before, describe, it } from 'node:test'
import { createTestApp } from '../../test/harness.ts'

/** Sends `bytes` on a raw connection and collects what comes back until the server closes it (or 10 s pass). */
function converse(port: number, bytes: string): Promise<{ answer: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes))
    let answer = ''
    const give = setTimeout(() => {
      socket.destroy()
      resolve({ answer, closedByServer: false })
    }, 10_000)
    socket.on('data', (chunk) => (answer += chunk))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(give)
      resolve({ answer, closedByServer: true })
    })
  })
}

describe('connection limits (a listening server)', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>
  let port: number
  before(async () => {
    t = await createTestApp({ REQUEST_TIMEOUT_MS: '500', KEEP_ALIVE_TIMEOUT_MS: '500' })
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    port = (t.app.server.address() as net.AddressInfo).port
  })
  after(async () => t.close())

  it('a body that stops coming is cut with 408 after REQUEST_TIMEOUT_MS, not held open', async () => {
    const { answer, closedByServer } = await converse(
      port,
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nusername=',
    )
    assert.ok(closedByServer, 'the server closed the connection')
    assert.match(answer, /^HTTP\/1\.1 408 Request Timeout\r\n/)
    assert.ok(answer.endsWith('\r\n\r\n{"detail":"Request Timeout"}'), answer)
  })

  it('headers that stop coming are cut too', async () => {
    const { answer, closedByServer } = await converse(port, 'GET /api/health HTTP/1.1\r\nHost: x\r\n')
    assert.ok(closedByServer)
    assert.match(answer, /^HTTP\/1\.1 408/)
  })

  it('an unparsable request gets 400 with the contract body', async () => {
    const { answer, closedByServer } = await converse(port, 'NOT HTTP AT ALL\r\n\r\n')
    assert.ok(closedByServer)
    assert.match(answer, /^HTTP\/1\.1 400 Bad Request\r\n[^]*\r\n\r\n\{"detail":"Bad Request"\}$/)
  })

  it('an idle keep-alive connection is closed after KEEP_ALIVE_TIMEOUT_MS', async () => {
    const { answer, closedByServer } = await converse(port, 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n')
    assert.match(answer, /^HTTP\/1\.1 200/)
    assert.match(answer, /Keep-Alive: timeout=\d/i)
    assert.ok(closedByServer)
  })
})
