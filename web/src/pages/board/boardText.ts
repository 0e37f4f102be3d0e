import type { PersonRef } from '../../api/types'

/** A date and time in the user's language (Intl). */
export function formatDateTimeIn(language: string, iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(d)
}

/** "Ann Lee, Bo Park and Cy Diaz" in the user's language (Intl.ListFormat). */
export function names(language: string, people: PersonRef[]): string {
  return new Intl.ListFormat(language, { style: 'long', type: 'conjunction' }).format(
    people.map((p) => `${p.fname} ${p.lname}`),
  )
}
