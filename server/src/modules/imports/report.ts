/**
 * What an LCR report says, row by row (docs/api-reference.md §15). The header
 * row is found by its labels (case, spacing, punctuation, order and extra
 * columns do not matter); only the columns the service uses are read — name,
 * email, phone, organization, calling, sustained, set apart, unit — and every
 * other column (gender, age, birth date, anything else) is read past: its
 * cells are never copied out of the table, and its label is listed as
 * ignored. Age and birth date only tell two people of one name apart.
 */

export type Field =
  | 'name'
  | 'email'
  | 'phone'
  | 'organization'
  | 'calling'
  | 'sustained'
  | 'set_apart'
  | 'unit'
  | 'age'
  | 'birth'
  | 'gender'

/** Columns read to tell two people of one name apart, then dropped: never kept, listed as ignored. */
export const READ_PAST: ReadonlySet<Field> = new Set(['age', 'birth', 'gender'])

const LABELS: Record<string, Field> = {
  name: 'name',
  preferredname: 'name',
  fullname: 'name',
  membername: 'name',
  email: 'email',
  emailaddress: 'email',
  individualemail: 'email',
  phone: 'phone',
  phonenumber: 'phone',
  individualphone: 'phone',
  organization: 'organization',
  organizations: 'organization',
  calling: 'calling',
  callings: 'calling',
  callingname: 'calling',
  position: 'calling',
  sustained: 'sustained',
  datesustained: 'sustained',
  setapart: 'set_apart',
  datesetapart: 'set_apart',
  currentunit: 'unit',
  unit: 'unit',
  unitname: 'unit',
  ward: 'unit',
  age: 'age',
  birthdate: 'birth',
  birthday: 'birth',
  gender: 'gender',
  sex: 'gender',
}

export const labelKey = (label: string): string =>
  label
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z]/g, '')

/** Where each used field is, by column index; the first column of a field wins. */
export function mapHeader(cells: readonly string[]): Partial<Record<Field, number>> {
  const map: Partial<Record<Field, number>> = {}
  cells.forEach((cell, i) => {
    const field = LABELS[labelKey(cell)]
    if (field && map[field] === undefined) map[field] = i
  })
  return map
}

/** A header row: a Name column and a Calling, Email or Phone column. */
export function isHeaderRow(cells: readonly string[]): boolean {
  const map = mapHeader(cells)
  return map.name !== undefined && (map.calling !== undefined || map.email !== undefined || map.phone !== undefined)
}

export const EXPECTED_COLUMNS =
  'Expected the header row of an LCR report: "Members with Callings" (Name, Gender, Age, Birth Date, Phone, ' +
  'Organization, Calling, Sustained, Set Apart), "Organizations and Callings" (Organization, Calling, Name, ' +
  'Sustained, Set Apart) or the member list (Name, Gender, Age, Birth Date, Phone Number, E-mail)'
