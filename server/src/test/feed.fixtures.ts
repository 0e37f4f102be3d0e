// Test helpers of the calendar feed (imported by feed*.test.ts only).
import assert from 'node:assert/strict'
import ICAL from 'ical.js'
import type { LightMyRequestResponse } from 'fastify'
import type { TestApp } from './harness.ts'

export interface FeedEvent {
  uid: string
  summary: string
  description: string | null
  start: Date
  end: Date
}

/** Reads a feed response back with ical.js, after checking what RFC 5545 asks of the text itself. */
export function readFeed(res: LightMyRequestResponse): FeedEvent[] {
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.headers['content-type'], 'text/calendar; charset=utf-8')
  const text = res.body
  assert.ok(text.endsWith('\r\n'), 'the text ends with CRLF')
  assert.ok(!/[^\r]\n/.test(text), 'every line ends with CRLF')
  for (const line of text.split('\r\n')) assert.ok(Buffer.byteLength(line) <= 75, `line folded at 75 octets: ${line}`)
  const calendar = new ICAL.Component(ICAL.parse(text))
  assert.equal(calendar.name, 'vcalendar')
  assert.equal(calendar.getFirstPropertyValue('version'), '2.0')
  return calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component)
    return {
      uid: event.uid,
      summary: event.summary,
      description: event.description || null,
      start: event.startDate.toJSDate(),
      end: event.endDate.toJSDate(),
    }
  })
}

/** GET of a feed address as a calendar app makes it: no sign-in. */
export function fetchFeed(t: TestApp, url: string) {
  return t.app.inject({ method: 'GET', url: new URL(url).pathname })
}

/** The wall clock of an instant in a zone, as `YYYY-MM-DD HH:MM` (independent of feed.dates.ts). */
export function localTime(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(instant)
}

/** The days of the Sundays of a month, counted one by one. */
export function sundays(year: number, month: number): number[] {
  const days: number[] = []
  for (let d = 1; d <= 31; d++) {
    const date = new Date(Date.UTC(year, month - 1, d))
    if (date.getUTCMonth() === month - 1 && date.getUTCDay() === 0) days.push(d)
  }
  return days
}
