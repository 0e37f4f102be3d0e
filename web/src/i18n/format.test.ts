/** Dates, times and month names follow the client's language (docs/api-reference.md §13). */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import i18next from 'i18next'
import { formatDate, formatDateTime, formatMinutes, formatMonth } from './format.ts'

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
})
