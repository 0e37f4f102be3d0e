/** Dates, times and month names follow the client's language (docs/api-reference.md §13). */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import i18next from 'i18next'
import { dateFormat, formatDate, formatDateTime, formatMinutes, formatMonth, listFormat } from './format.ts'

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
})
