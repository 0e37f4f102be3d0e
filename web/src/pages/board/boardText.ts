import type { PersonRef } from '../../api/types'

/** "Ann Lee, Bo Park and Cy Diaz" in the user's language (Intl.ListFormat). */
export function names(language: string, people: PersonRef[]): string {
  return new Intl.ListFormat(language, { style: 'long', type: 'conjunction' }).format(
    people.map((p) => `${p.fname} ${p.lname}`),
  )
}
