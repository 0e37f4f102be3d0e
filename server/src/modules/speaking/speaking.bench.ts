// The speaking schedule's benchmark scenario (npm run bench): a full year's
// calendar — 12 seats, 12 wards, overrides and topics — against a bare server
// answering the same bytes.
import crypto from 'node:crypto'
import type { Scenario } from '../../../bench/scenarios.ts'
import { insertUser } from '../users/users.repository.ts'
import { HIGH_COUNCILOR } from '../callings/callings.repository.ts'

const YEAR = 2026

export const speakingCalendarScenario: Scenario = {
  name: `GET /api/speaking/calendar/${YEAR}`,
  target: 0.5,
  baseline: 'same-bytes',
  async prepare(env) {
    const { db } = env
    const now = new Date().toISOString()
    const tag = crypto.randomBytes(3).toString('hex')
    for (let i = 1; i <= 12; i++) {
      const name = `Bench ${tag} Ward ${String(i).padStart(2, '0')}`
      await db.insertInto('wards').values({ name, name_key: name.toLowerCase(), start_time: 540 + 30 * (i % 6), created_at: now, updated_at: now }).execute()
    }
    const calling = await db.selectFrom('callings').select('id').where('key', '=', HIGH_COUNCILOR).executeTakeFirstOrThrow()
    const vacant = await db.selectFrom('calling_slots').select('slot_id').where('calling_id', '=', calling.id).where('user_id', 'is', null).orderBy('slot_id').execute()
    const councilors: number[] = []
    for (const { slot_id } of vacant) {
      const user = await insertUser(db, {
        email: `hc-${tag}-${slot_id}@bench.example.org`,
        fname: `Councilor${slot_id}`,
        lname: `Bench${tag}`,
        password_hash: 'not-a-login',
        force_password_reset: false,
        now,
      })
      await db.updateTable('calling_slots').set({ user_id: user.id, filled_at: now }).where('calling_id', '=', calling.id).where('slot_id', '=', slot_id).execute()
      councilors.push(user.id)
    }
    // Through the API, so the real write paths run: a few overrides (swaps) and every month's topic.
    const calendar = (await env.api('GET', `/api/speaking/calendar/${YEAR}`)).json as { wards: { id: number }[] }
    const wards = calendar.wards.map((w) => w.id)
    for (let month = 1; month <= 12 && councilors.length > 1; month++) {
      const res = await env.api('PUT', '/api/speaking/calendar/override', {
        high_councilor_id: councilors[month % councilors.length],
        month,
        year: YEAR,
        ward_id: month % 5 === 0 ? null : wards[(month * 7) % wards.length],
      })
      if (res.status !== 200) throw new Error(`override failed: ${res.status} ${res.text}`)
    }
    for (let month = 1; month <= 12; month++) {
      const res = await env.api('PUT', `/api/speaking/topics/${YEAR}/${month}`, { topic: `Topic of month ${month}`, reference: `Reference ${month}` })
      if (res.status !== 200) throw new Error(`topic failed: ${res.status} ${res.text}`)
    }
    return { method: 'GET', path: `/api/speaking/calendar/${YEAR}`, headers: { authorization: `Bearer ${env.adminToken}` } }
  },
}
