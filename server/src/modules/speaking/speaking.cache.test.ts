import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { SpeakingCalendar } from '@stake/contract'
import { buildApp } from '../../app.ts'
import type { FastifyTypebox } from '../../http.ts'
import { createUser, injectAs, signedIn, unique } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { cell, createWard, setHolder, setSeatCount } from './speaking.fixtures.ts'

const YEAR = 2031
const CALENDAR = `/api/speaking/calendar/${YEAR}`

/**
 * Each instance keeps the serialized calendar of a year while speaking_version
 * is unchanged (speaking.service.ts). Each test reads the calendar on both
 * instances (so both keep it), makes one kind of change, and reads again: the
 * change must show at once on both.
 */
describe('speaking calendar cache: every change shows on the next read', () => {
  const t = useTestApp()
  let other: FastifyTypebox
  let reads: ((method: 'GET', url: string) => Promise<{ statusCode: number; body: string; json(): any }>)[]
  let manager: Awaited<ReturnType<typeof signedIn>>
  const councilors: number[] = []

  before(async () => {
    await setSeatCount(t, 3)
    for (let i = 0; i < 2; i++) await createWard(t)
    for (const slot of [1, 2, 3]) {
      const user = await createUser(t)
      councilors.push(user.id)
      await setHolder(t, slot, user.id)
    }
    manager = await signedIn(t, { permissions: ['speaking.manage'] })
    other = await buildApp({ config: t.config, db: t.database.db, dialect: t.database.dialect, clock: t.clock })
    await other.ready()
    reads = [manager.as, injectAs({ ...t, app: other }, manager.token)]
  })
  after(async () => {
    await other.close()
  })

  const calendars = async (): Promise<SpeakingCalendar[]> =>
    Promise.all(
      reads.map(async (read) => {
        const res = await read('GET', CALENDAR)
        assert.equal(res.statusCode, 200, res.body)
        return res.json()
      }),
    )
  const write = async (method: 'PUT' | 'DELETE', url: string, body?: unknown) => {
    const res = await manager.as(method, url, body)
    assert.ok(res.statusCode < 300, `${res.statusCode} ${res.body}`)
  }

  it('answers the same bytes twice when nothing changed', async () => {
    const first = await manager.as('GET', CALENDAR)
    const second = await manager.as('GET', CALENDAR)
    assert.equal(second.body, first.body)
    assert.match(String(second.headers['content-type']), /^application\/json/)
  })

  it('shows an override and its restore', async () => {
    await calendars()
    await write('PUT', '/api/speaking/calendar/override', { high_councilor_id: councilors[0], month: 4, year: YEAR, ward_id: null })
    for (const c of await calendars()) assert.deepEqual(cell(c, 1, 4), { month: 4, ward_id: null, overridden: true, topic: null })
    await write('DELETE', `/api/speaking/calendar/override?high_councilor_id=${councilors[0]}&month=4&year=${YEAR}`)
    for (const c of await calendars()) assert.equal(cell(c, 1, 4).overridden, false)
  })

  it('shows a topic set and deleted', async () => {
    await calendars()
    await write('PUT', `/api/speaking/topics/${YEAR}/6`, { topic: 'Ministering' })
    for (const c of await calendars()) assert.equal(cell(c, 2, 6).topic, 'Ministering')
    await write('DELETE', `/api/speaking/topics/${YEAR}/6`)
    for (const c of await calendars()) assert.equal(cell(c, 2, 6).topic, null)
  })

  it('shows a new holder, a vacancy and a renamed holder', async () => {
    await calendars()
    await setHolder(t, 3, null)
    for (const c of await calendars()) assert.equal(c.rows[2]!.high_councilor, null)
    await setHolder(t, 3, councilors[2]!)
    const fname = unique('Renamed')
    await t.database.db.updateTable('users').set({ fname }).where('id', '=', councilors[2]!).execute()
    for (const c of await calendars()) assert.equal(c.rows[2]!.high_councilor?.fname, fname)
  })

  it('shows a ward added, renamed and removed, and a seat added', async () => {
    await calendars()
    const ward = await createWard(t)
    for (const c of await calendars()) assert.ok(c.wards.some((w) => w.id === ward.id))
    await t.database.db.updateTable('wards').set({ name: 'Renamed ward' }).where('id', '=', ward.id).execute()
    for (const c of await calendars()) assert.equal(c.wards.find((w) => w.id === ward.id)?.name, 'Renamed ward')
    await t.database.db.deleteFrom('wards').where('id', '=', ward.id).execute()
    for (const c of await calendars()) assert.ok(!c.wards.some((w) => w.id === ward.id))
    await setSeatCount(t, 4)
    for (const c of await calendars()) assert.equal(c.rows.length, 4)
  })
})
