import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { describe, it } from 'node:test'
import { ConfigError, parseConfig } from '../../config.ts'
import { useTestApp } from '../../test/harness.ts'
import { signedIn } from '../../test/factories.ts'
import { feedMonths, speakingDay, zonedInstant } from './feed.dates.ts'

describe('feed dates (pure)', () => {
  it('speakingDay: the n-th Sunday, the last one when the month has no fifth', () => {
    // March 2026 starts on a Sunday (1, 8, 15, 22, 29); February 2026 has four (1, 8, 15, 22).
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((n) => speakingDay(2026, 3, n)),
      [1, 8, 15, 22, 29],
    )
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((n) => speakingDay(2026, 2, n)),
      [1, 8, 15, 22, 22],
    )
    // August 2026 starts on a Saturday: 2, 9, 16, 23, 30.
    assert.deepEqual(
      [1, 5].map((n) => speakingDay(2026, 8, n)),
      [2, 30],
    )
    // A leap February: 2032 starts on a Sunday and has five (1 … 29).
    assert.equal(speakingDay(2032, 2, 5), 29)
  })

  it('zonedInstant keeps the wall clock across daylight-saving changes', () => {
    const denver = (y: number, m: number, d: number, minutes: number) =>
      zonedInstant({ year: y, month: m, day: d }, minutes, 'America/Denver').toISOString()
    assert.equal(denver(2026, 3, 1, 600), '2026-03-01T17:00:00.000Z')
    assert.equal(denver(2026, 3, 8, 600), '2026-03-08T16:00:00.000Z', 'the day clocks go forward')
    // 02:30 does not exist on 8 March 2026: moved on by the gap, to 03:30 MDT.
    assert.equal(denver(2026, 3, 8, 150), '2026-03-08T09:30:00.000Z')
    // 01:30 happens twice on 1 November 2026: the first (MDT).
    assert.equal(denver(2026, 11, 1, 90), '2026-11-01T07:30:00.000Z')
    assert.equal(
      zonedInstant({ year: 2026, month: 7, day: 5 }, 0, 'Australia/Lord_Howe').toISOString(),
      '2026-07-04T13:30:00.000Z',
    )
    assert.equal(zonedInstant({ year: 2026, month: 1, day: 4 }, 600, 'UTC').toISOString(), '2026-01-04T10:00:00.000Z')
  })

  it('feedMonths: the current month in the stake’s zone and the 11 after it, across the year end', () => {
    // 05:00 UTC on 1 March is still February in Denver.
    const months = feedMonths(new Date('2026-03-01T05:00:00Z'), 'America/Denver')
    assert.equal(months.length, 12)
    assert.deepEqual(months[0], { year: 2026, month: 2 })
    assert.deepEqual(months[11], { year: 2027, month: 1 })
    assert.deepEqual(feedMonths(new Date('2026-03-01T05:00:00Z'), 'UTC')[0], { year: 2026, month: 3 })
  })

  it('STAKE_TIMEZONE: an IANA name, validated; the server’s zone by default', () => {
    assert.equal(parseConfig({ STAKE_TIMEZONE: 'America/Denver' }).stakeTimezone, 'America/Denver')
    assert.equal(parseConfig({}).stakeTimezone, Intl.DateTimeFormat().resolvedOptions().timeZone)
    for (const bad of ['Mars/Olympus', 'Denver', 'America/Denver; rm']) {
      assert.throws(() => parseConfig({ STAKE_TIMEZONE: bad }), ConfigError, bad)
    }
  })

  it('PUBLIC_URL: an http(s) address, kept without a trailing slash', () => {
    assert.equal(parseConfig({}).publicUrl, null)
    assert.equal(parseConfig({ PUBLIC_URL: 'https://stake.example.org/' }).publicUrl, 'https://stake.example.org')
    for (const bad of ['stake.example.org', 'ftp://x.org', 'https://x.org/?a=1', 'https://u:p@x.org']) {
      assert.throws(() => parseConfig({ PUBLIC_URL: bad }), ConfigError, bad)
    }
  })
})

describe('feed tokens are never logged', () => {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  const t = useTestApp({}, { logger: { level: 'info', stream } })

  it('the request line names the route pattern, not the token', async () => {
    const { as } = await signedIn(t)
    const { url } = (await as('POST', '/api/speaking/feed')).json()
    const path = new URL(url).pathname
    const token = path
      .split('/')
      .pop()!
      .replace(/\.ics$/, '')
    assert.equal((await t.app.inject({ method: 'GET', url: path })).statusCode, 200)
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request')
    assert.ok(
      requests.some((l) => l.url === '/api/speaking/feed/:file' && l.status === 200),
      JSON.stringify(requests),
    )
    assert.ok(!lines.join('\n').includes(token))
  })
})
