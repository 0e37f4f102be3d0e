import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../../test/harness.ts'
import { ALL_PERMISSIONS, injectAs, signedIn, type TestUser } from '../../test/factories.ts'
import { bookingLink } from '../../test/appointments.fixtures.ts'
import { presidency } from '../../test/proposals.fixtures.ts'

const WEEKLY = [{ weekday: 2, start_minute: 18 * 60, end_minute: 20 * 60 }]
type As = ReturnType<typeof injectAs>

describe('where interviews are held, and the booked interview as a calendar file (docs/api-reference.md §18)', () => {
  const t = useTestApp({ STAKE_TIMEZONE: 'America/Denver' })
  let president: { user: TestUser; as: As }
  let counselor: { user: TestUser; as: As }
  const anonymous = () => injectAs(t, null)

  before(async () => {
    const p = await presidency(t)
    president = p.president
    counselor = p.first
    // The person has no account: the calendar file speaks the stake's language.
    const admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const { id: _id, ...stake } = (await admin.as('GET', '/api/stake')).json()
    assert.equal((await admin.as('PUT', '/api/stake', { ...stake, language: 'es' })).statusCode, 200)
  })

  const availability = (as: As, body: Record<string, unknown>) =>
    as('PUT', '/api/appointments/availability', { weekly: WEEKLY, exceptions: [], ...body })

  it('the availability keeps its place: set, kept when omitted, cleared when blank; over 300 characters is 422', async () => {
    const set = await availability(president.as, { place: '  Stake offices, room 2 ' })
    assert.equal(set.statusCode, 200, set.body)
    assert.equal(set.json().place, 'Stake offices, room 2')
    assert.equal((await availability(president.as, {})).json().place, 'Stake offices, room 2')
    assert.equal((await president.as('GET', '/api/appointments/availability')).json().place, 'Stake offices, room 2')
    assert.equal((await availability(president.as, { place: '   ' })).json().place, null)
    assert.equal((await availability(president.as, { place: 'x'.repeat(301) })).statusCode, 422)
    // Another interviewer's place is his own.
    assert.equal((await availability(counselor.as, {})).json().place, null)
  })

  it('the booking page shows the place; the calendar file is 404 until booked, then one event with it', async () => {
    await availability(president.as, { place: 'https://meet.example.org/stake' })
    const { path } = await bookingLink(president.as, president.user.id, 'Pat Person')
    const page = await anonymous()('GET', path)
    assert.equal(page.json().place, 'https://meet.example.org/stake')
    assert.equal((await anonymous()('GET', `${path}/calendar.ics`)).statusCode, 404)

    const slot = page.json().slots[0]
    assert.equal((await anonymous()('POST', path, { starts_at: slot.starts_at })).statusCode, 201)
    const ics = await anonymous()('GET', `${path}/calendar.ics`)
    assert.equal(ics.statusCode, 200, ics.body)
    assert.equal(ics.headers['content-type'], 'text/calendar; charset=utf-8')
    assert.match(String(ics.headers['content-disposition']), /attachment/)
    const text = ics.body.replace(/\r\n[ \t]/g, '')
    assert.equal(text.match(/BEGIN:VEVENT/g)?.length, 1)
    assert.match(text, /SUMMARY:Entrevista con /)
    assert.match(text, /LOCATION:https:\/\/meet\.example\.org\/stake/)
    const start = slot.starts_at.replace(/[-:]/g, '').replace(/\.\d+/, '')
    assert.match(text, new RegExp(`DTSTART:${start}`))
    assert.equal((await anonymous()('GET', `/api/appointments/book/${'A'.repeat(43)}/calendar.ics`)).statusCode, 404)
  })
})
