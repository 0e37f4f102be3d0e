import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { describe, it } from 'node:test'
import { useTestApp } from '../../test/harness.ts'
import { injectAs } from '../../test/factories.ts'
import { bookingLink } from '../../test/appointments.fixtures.ts'
import { presidency } from '../../test/proposals.fixtures.ts'

describe('booking-link tokens are never logged (docs/api-reference.md §18)', () => {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  const t = useTestApp({}, { logger: { level: 'info', stream } })

  it('book, move, cancel and refusals log the route pattern, never the token', async () => {
    const { president } = await presidency(t)
    const weekly = Array.from({ length: 7 }, (_, weekday) => ({ weekday, start_minute: 540, end_minute: 1020 }))
    assert.equal(
      (await president.as('PUT', '/api/appointments/availability', { weekly, exceptions: [] })).statusCode,
      200,
    )
    const { token, path } = await bookingLink(president.as, president.user.id, 'Lena Log')
    const anonymous = injectAs(t, null)
    const slots = (await anonymous('GET', path)).json().slots
    assert.equal((await anonymous('POST', path, { starts_at: slots[0].starts_at })).statusCode, 201)
    assert.equal((await anonymous('POST', path, { starts_at: slots[1].starts_at })).statusCode, 409)
    assert.equal((await anonymous('PUT', path, { starts_at: 'soon' })).statusCode, 422)
    assert.equal((await anonymous('PUT', path, { starts_at: slots[1].starts_at })).statusCode, 200)
    assert.equal((await anonymous('GET', `${path}/calendar.ics`)).statusCode, 200)
    assert.equal((await anonymous('DELETE', path)).statusCode, 204)
    assert.equal((await anonymous('GET', `/appointments/book/${token}`)).statusCode, 200, 'the root alias too')
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request')
    assert.ok(requests.filter((l) => /\/appointments\/book\/:token$/.test(l.url)).length >= 7, JSON.stringify(requests))
    assert.ok(requests.some((l) => /\/appointments\/book\/:token\/calendar\.ics$/.test(l.url)))
    assert.ok(!lines.join('\n').includes(token), 'the token appears in no log line')
  })
})
