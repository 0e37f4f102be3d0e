/**
 * Words of appointment mail and notifications (docs/api-reference.md §18):
 * the member's mail, and the interviewer's inbox line in his language. The
 * mail carries no link: the link is the member's credential and is never
 * stored, not even in the outbox (docs/decisions.md "Appointments").
 */

export type Change = 'booked' | 'moved' | 'cancelled' | 'reminder'

const when = (at: string, timeZone: string, language: string) =>
  new Intl.DateTimeFormat(language === 'es' ? 'es' : 'en', {
    timeZone,
    dateStyle: 'full',
    timeStyle: 'short',
  }).format(new Date(at))

const INBOX: Record<'en' | 'es', Record<Exclude<Change, 'reminder'>, string>> = {
  en: { booked: 'Interview booked', moved: 'Interview moved', cancelled: 'Interview cancelled' },
  es: { booked: 'Entrevista reservada', moved: 'Entrevista cambiada', cancelled: 'Entrevista cancelada' },
}

/** The interviewer's notification: who and when (he is the interviewer, so the name is his to know). */
export function inboxText(
  language: string,
  change: Exclude<Change, 'reminder'>,
  name: string,
  at: string,
  timeZone: string,
): string {
  const lang = language === 'es' ? 'es' : 'en'
  return `${INBOX[lang][change]}: ${name}, ${when(at, timeZone, lang)}`
}

const MAIL: Record<
  'en' | 'es',
  {
    subjects: Record<Change, string>
    line(change: Change, interviewer: string, time: string): string
    hello(name: string): string
    change: string
  }
> = {
  en: {
    subjects: {
      booked: 'Your interview is booked',
      moved: 'Your interview has a new time',
      cancelled: 'Your interview is cancelled',
      reminder: 'Reminder: your interview is tomorrow',
    },
    line: (change, interviewer, time) =>
      change === 'cancelled'
        ? `Your interview with ${interviewer} on ${time} is cancelled.`
        : change === 'reminder'
          ? `This is a reminder of your interview with ${interviewer} tomorrow, ${time}.`
          : `Your interview with ${interviewer} is on ${time}.`,
    hello: (name) => `Hello ${name},`,
    change: 'To change or cancel it, open the link you were given.',
  },
  es: {
    subjects: {
      booked: 'Su entrevista está reservada',
      moved: 'Su entrevista tiene una nueva hora',
      cancelled: 'Su entrevista está cancelada',
      reminder: 'Recordatorio: su entrevista es mañana',
    },
    line: (change, interviewer, time) =>
      change === 'cancelled'
        ? `Su entrevista con ${interviewer} el ${time} está cancelada.`
        : change === 'reminder'
          ? `Le recordamos su entrevista con ${interviewer} mañana, ${time}.`
          : `Su entrevista con ${interviewer} es el ${time}.`,
    hello: (name) => `Hola ${name}:`,
    change: 'Para cambiarla o cancelarla, abra el enlace que recibió.',
  },
}

/**
 * The member's mail, in the stake's language: the member has no account, so
 * no language of his own (docs/decisions.md "Appointments").
 */
export function memberMail(
  language: string,
  change: Change,
  name: string,
  interviewer: string,
  at: string,
  timeZone: string,
) {
  const lang = language === 'es' ? 'es' : 'en'
  const words = MAIL[lang]
  const text = [words.hello(name), words.line(change, interviewer, when(at, timeZone, lang)), words.change].join('\n\n')
  const escape = (s: string) =>
    s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
  const html = `<!doctype html><html><body>${text
    .split('\n\n')
    .map((p) => `<p>${escape(p)}</p>`)
    .join('')}</body></html>`
  return { subject: words.subjects[change], text, html }
}
