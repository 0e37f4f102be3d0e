import type { Clock } from '../clock.ts'
import { tokenOf } from './demo.http.ts'
import { DEMO_MEMBERS } from './demo.people.ts'
import type { DemoCast, DemoProposals } from './demo.proposals.ts'
import type { Seated } from './demo.seed.ts'

/** Today's date in the zone, YYYY-MM-DD, and its weekday (0 = Sunday). */
function localToday(now: Date, timeZone: string): { date: string; weekday: number } {
  const date = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    now,
  )
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(
    new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short' }).format(now),
  )
  return { date, weekday }
}

/** The local date `days` after `date` (calendar arithmetic on the date alone). */
const addDays = (date: string, days: number): string => {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** The coming Sunday (today when it is one) and the three after it. */
function comingSundays(now: Date, timeZone: string, count = 4): string[] {
  const today = localToday(now, timeZone)
  const first = addDays(today.date, (7 - today.weekday) % 7)
  return Array.from({ length: count }, (_, i) => addDays(first, 7 * i))
}

/**
 * The presidency's week (docs/demo.md): published interview hours, booking
 * links the people used (as they would from the link's page, without signing
 * in), one link not used yet, and the coming Sundays' ward visits and
 * conference session.
 */
export async function seedWeek(cast: DemoCast, proposals: DemoProposals, timeZone: string, clock: Clock) {
  const { clerk, presidency, wards } = cast
  const [president, first, second] = presidency as [Seated, Seated, Seated]
  const evenings = (weekdays: number[]) => ({
    weekly: weekdays.map((weekday) => ({ weekday, start_minute: 18 * 60, end_minute: 21 * 60 })),
    exceptions: [],
  })
  await president.as.put('/appointments/availability', evenings([2, 4]))
  await first.as.put('/appointments/availability', evenings([3]))
  await second.as.put('/appointments/availability', evenings([1, 3]))

  const anonymous = clerk.anonymous()
  const book = async (by: Seated, offer: Record<string, unknown>, pick: number) => {
    const { url } = await by.as.post<{ url: string }>('/appointments/offers', { duration_minutes: 30, ...offer })
    const token = tokenOf(url)
    const page = await anonymous.get<{ slots: { starts_at: string }[] }>(`/appointments/book/${token}`)
    const slot = page.slots[Math.min(pick, page.slots.length - 1)]
    if (slot) await anonymous.post(`/appointments/book/${token}`, { starts_at: slot.starts_at })
  }
  await book(
    president,
    { kind: 'proposal', proposal_id: proposals.presidentInterview, interviewer_id: president.id },
    0,
  )
  await book(first, { kind: 'proposal', proposal_id: proposals.counselorInterview, interviewer_id: first.id }, 1)
  const temple = DEMO_MEMBERS[15]!
  await book(
    president,
    { kind: 'temple_recommend', name: `${temple.fname} ${temple.lname}`, interviewer_id: president.id },
    2,
  )
  const unused = DEMO_MEMBERS[3]!
  await second.as.post('/appointments/offers', {
    kind: 'other',
    name: `${unused.fname} ${unused.lname}`,
    interviewer_id: second.id,
    duration_minutes: 15,
  })

  const sundays = comingSundays(clock.now(), timeZone)
  const visit = (who: Seated, ward: number) => ({ user_id: who.id, kind: 'ward_visit', ward_id: wards[ward]!.id })
  const plans = [
    [visit(president, 0), visit(first, 3), visit(second, 5)],
    [visit(president, 2), visit(first, 4)],
    [
      { user_id: president.id, kind: 'stake_conference', session: 'General session', start_minute: 10 * 60 },
      { user_id: first.id, kind: 'stake_conference', session: 'General session', start_minute: 10 * 60 },
      { user_id: second.id, kind: 'stake_conference', session: 'General session', start_minute: 10 * 60 },
    ],
    [visit(president, 6), visit(second, 7)],
  ]
  for (const [i, assignments] of plans.entries())
    await clerk.put('/sunday-plan/assignments', { date: sundays[i], assignments })
}
