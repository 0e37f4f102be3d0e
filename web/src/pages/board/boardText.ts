import type { PersonRef } from '../../api/types'
import { listFormat } from '../../i18n/format'

/** "Ann Lee, Bo Park and Cy Diaz" in the user's language (Intl.ListFormat). */
export function names(language: string, people: PersonRef[]): string {
  return listFormat(language).format(people.map((p) => `${p.fname} ${p.lname}`))
}
