/** Dates, times and month names follow the client's language (docs/api-reference.md §13). */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import i18next from 'i18next'
import {
  comingSunday,
  dateFormat,
  formatDate,
  formatDateTime,
  formatLocalDate,
  formatMinutes,
  formatMonth,
  formatTime,
  fromWallTime,
  listFormat,
  setStakeZone,
  todayIn,
  toWallTime,
  zoneName,
} from './format.ts'

describe('formatting in the current language', () => {
  before(async () => {
    await i18next.init({ lng: 'en', fallbackLng: false, resources: { en: {}, es: {} } })
  })

  it('English', async () => {
    await i18next.changeLanguage('en')
    assert.equal(formatMonth(11), 'November')
    assert.equal(formatMonth(3, 'short', 2027), 'Mar 2027')
    assert.match(formatMinutes(570), /^9:30\sAM$/)
    assert.match(formatDate('2026-11-24T12:00:00Z'), /^Nov 2[345], 2026$/)
  })

  it('Spanish', async () => {
    await i18next.changeLanguage('es')
    assert.equal(formatMonth(11), 'noviembre')
    assert.equal(formatMinutes(570), '9:30')
    assert.match(formatDate('2026-11-24T12:00:00Z'), /^2[345] nov 2026$/)
    assert.match(formatDateTime('2026-11-24T12:00:00Z'), /^2[345] nov 2026, \d{1,2}:\d{2}$/)
  })

  it('absent and unreadable values', () => {
    assert.equal(formatDate(null), '—')
    assert.equal(formatDateTime('not a date'), 'not a date')
    assert.equal(formatMinutes(undefined), '—')
  })

  it('makes each formatter once per language and options, and a language change gets its own', async () => {
    await i18next.changeLanguage('en')
    const english = dateFormat({ dateStyle: 'medium' })
    assert.equal(dateFormat({ dateStyle: 'medium' }), english, 'the same formatter again')
    assert.notEqual(dateFormat({ dateStyle: 'full' }), english)
    assert.equal(listFormat('en'), listFormat('en'))
    assert.equal(listFormat('en').format(['Ann Lee', 'Bo Park', 'Cy Diaz']), 'Ann Lee, Bo Park, and Cy Diaz')
    await i18next.changeLanguage('es')
    assert.notEqual(dateFormat({ dateStyle: 'medium' }), english)
    assert.equal(listFormat().format(['Ann Lee', 'Bo Park', 'Cy Diaz']), 'Ann Lee, Bo Park y Cy Diaz')
    await i18next.changeLanguage('en')
  })

  it("shows instants in the stake's zone, whatever the browser's; calendar dates and wall-clock minutes never shift", async () => {
    await i18next.changeLanguage('en')
    setStakeZone('Pacific/Auckland')
    try {
      assert.match(formatTime('2026-11-28T23:30:00Z'), /^12:30\sPM$/)
      assert.match(formatDate('2026-11-28T23:30:00Z'), /^Nov 29, 2026$/)
      assert.match(formatDate('2026-11-28'), /^Nov 28, 2026$/)
      assert.match(formatMinutes(11 * 60), /^11:00\sAM$/)
      assert.equal(formatLocalDate('2026-11-01', 'full'), 'Sunday, November 1, 2026')
      assert.match(formatTime('2026-11-28T23:30:00Z', 'America/Denver'), /^4:30\sPM$/)
    } finally {
      setStakeZone(undefined)
    }
  })

  it('the coming Sunday is counted in the zone: Saturday evening in Denver is already Sunday in Auckland', () => {
    const saturdayEvening = new Date('2026-11-29T02:00:00Z')
    assert.equal(todayIn('America/Denver', saturdayEvening), '2026-11-28')
    assert.equal(comingSunday('America/Denver', saturdayEvening), '2026-11-29')
    assert.equal(comingSunday('Pacific/Auckland', saturdayEvening), '2026-11-29')
    assert.equal(comingSunday('Pacific/Auckland', new Date('2026-11-29T12:00:00Z')), '2026-12-06')
  })

  it("a date-and-time field reads and writes the stake's wall clock, whatever the browser's zone", () => {
    const browserZone = process.env.TZ
    process.env.TZ = 'Pacific/Kiritimati'
    setStakeZone('Pacific/Auckland')
    try {
      assert.equal(new Date('2026-11-28T23:30:00Z').getHours(), 13, "the browser's clock is Kiritimati's")
      assert.equal(toWallTime('2026-11-28T23:30:00Z'), '2026-11-29T12:30')
      assert.equal(fromWallTime('2026-11-29T12:30'), '2026-11-28T23:30:00.000Z')
      assert.equal(toWallTime('2026-11-28T23:30:00Z', 'America/Denver'), '2026-11-28T16:30')
      assert.equal(fromWallTime('2026-11-28T16:30:15', 'America/Denver'), '2026-11-28T23:30:15.000Z')
    } finally {
      setStakeZone(undefined)
      if (browserZone === undefined) delete process.env.TZ
      else process.env.TZ = browserZone
    }
  })

  it('a wall time across a change of the clocks: a repeated time is its first, a skipped one moves on by the gap', () => {
    // Denver springs forward at 02:00 on 8 March 2026 and falls back at 02:00 on 1 November.
    assert.equal(fromWallTime('2026-03-08T02:30', 'America/Denver'), '2026-03-08T09:30:00.000Z')
    assert.equal(toWallTime('2026-03-08T09:30:00Z', 'America/Denver'), '2026-03-08T03:30')
    assert.equal(fromWallTime('2026-11-01T01:30', 'America/Denver'), '2026-11-01T07:30:00.000Z')
    assert.equal(toWallTime('2026-11-01T08:30:00Z', 'America/Denver'), '2026-11-01T01:30')
    // Lord Howe moves its clocks by half an hour: 02:15 on 4 October 2026 never happens.
    assert.equal(fromWallTime('2026-10-04T02:15', 'Australia/Lord_Howe'), '2026-10-03T15:45:00.000Z')
    // Every quarter hour of both days comes back as it went in.
    for (const day of ['2026-03-08', '2026-11-01']) {
      for (let m = 0; m < 24 * 60; m += 15) {
        const local = `${day}T${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
        if (local >= '2026-03-08T02:00' && local < '2026-03-08T03:00') continue
        assert.equal(toWallTime(fromWallTime(local, 'America/Denver'), 'America/Denver'), local)
      }
    }
  })

  it('an empty or unreadable field is no instant, and no instant is an empty field', () => {
    assert.equal(fromWallTime(''), undefined)
    assert.equal(fromWallTime('tomorrow at ten'), undefined)
    assert.equal(toWallTime(null), '')
    assert.equal(toWallTime('not a date'), '')
  })

  it('names a zone as people do', async () => {
    await i18next.changeLanguage('en')
    assert.equal(zoneName('America/Denver'), 'Mountain Time (Denver)')
    await i18next.changeLanguage('es')
    assert.match(zoneName('America/Denver'), /\(Denver\)$/)
    await i18next.changeLanguage('en')
  })
})
