const TITLE: Record<'en' | 'es', (interviewer: string) => string> = {
  en: (interviewer) => `Interview with ${interviewer}`,
  es: (interviewer) => `Entrevista con ${interviewer}`,
}

/**
 * The booked interview as a one-event calendar file for the person to add to
 * his own calendar, in the stake's language (he has no account, so no
 * language of his own). The event's id is the appointment's: a moved
 * interview downloaded again replaces the old event. ical-generator is
 * loaded on the first download: a server that never serves one never needs it
 * (docs/performance.md).
 */
export async function bookingCalendar(input: {
  id: number
  language: string
  interviewer: string
  place: string | null
  starts_at: string
  ends_at: string
  now: Date
}): Promise<string> {
  const { default: ical } = await import('ical-generator')
  const cal = ical({ prodId: { company: 'Stake Administration Service', product: 'booking', language: 'EN' } })
  const title = TITLE[input.language === 'es' ? 'es' : 'en'](input.interviewer)
  const url = input.place && /^https?:\/\/\S+$/i.test(input.place) ? input.place : null
  cal.createEvent({
    id: `appointment-${input.id}@stake-administration`,
    start: new Date(input.starts_at),
    end: new Date(input.ends_at),
    stamp: input.now,
    summary: title,
    ...(input.place ? { location: input.place } : {}),
    ...(url ? { url } : {}),
  })
  const text = cal.toString()
  return text.endsWith('\r\n') ? text : `${text}\r\n`
}
