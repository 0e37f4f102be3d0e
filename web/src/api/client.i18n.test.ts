/**
 * The API client's messages in the client's language (docs/api-reference.md §13): in
 * English the server's own text, in Spanish the client's text for the error
 * code, the HTTP status or the 422 field's type. Run with `npm run test:unit -w web`.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { before, describe, it } from 'node:test'
import i18next from 'i18next'
import { ApiError } from './client.ts'

const locales = path.join(import.meta.dirname, '..', 'i18n', 'locales')
const load = (lng: string, ns: string) => JSON.parse(fs.readFileSync(path.join(locales, lng, `${ns}.json`), 'utf8'))

describe('API error messages', () => {
  before(async () => {
    await i18next.init({
      lng: 'en',
      fallbackLng: false,
      defaultNS: 'common',
      resources: Object.fromEntries(
        ['en', 'es'].map((lng) => [lng, { common: load(lng, 'common'), errors: load(lng, 'errors') }]),
      ),
      interpolation: { escapeValue: false },
    })
  })

  it('in English, shows the server’s own text', async () => {
    await i18next.changeLanguage('en')
    assert.equal(
      new ApiError(409, { detail: 'That seat is taken by Ana', code: 'slot_filled' }).message,
      'That seat is taken by Ana',
    )
    const e = new ApiError(422, {
      detail: [{ loc: ['body', 'name'], msg: 'String should have at most 100 characters', type: 'string_too_long' }],
    })
    assert.deepEqual(e.fieldMap(), { name: 'String should have at most 100 characters' })
    assert.equal(new ApiError(0, null).message, 'The server could not be reached. Check your connection and try again.')
  })

  it('in Spanish, the client’s text for the code, else the status, and each field by its type', async () => {
    await i18next.changeLanguage('es')
    assert.equal(
      new ApiError(409, { detail: 'That seat is taken by Ana', code: 'slot_filled' }).message,
      'Ese puesto ya está ocupado.',
    )
    assert.equal(
      new ApiError(404, { detail: 'Ward not found' }).message,
      'Este elemento ya no existe o usted no puede verlo.',
    )
    assert.equal(new ApiError(418, { detail: 'teapot' }).message, 'La solicitud falló (418)')
    assert.equal(
      new ApiError(0, null).message,
      'No se pudo conectar con el servidor. Revise su conexión y vuelva a intentarlo.',
    )
    const e = new ApiError(422, {
      detail: [
        { loc: ['body', 'name'], msg: 'String should have at most 100 characters', type: 'string_too_long' },
        { loc: ['body', 'fname'], msg: 'String should have at least 1 character', type: 'string_too_short' },
        { loc: ['body', 'ward_id'], msg: 'Ward not found', type: 'value_error' },
      ],
    })
    assert.deepEqual(e.fieldMap(), {
      name: 'Use como máximo 100 caracteres.',
      fname: 'Este campo es obligatorio.',
      ward_id: 'Este valor no es válido.',
    })
    assert.equal(e.message, 'Algunos valores no son válidos.')
  })
})
