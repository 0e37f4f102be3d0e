import type { ImportKind, ImportProblem } from '@stake/contract'
import { invalid } from '../../errors.ts'

/**
 * What an LCR report says, row by row (docs/api-reference.md §15). The header
 * row is found by its labels (case, spacing, punctuation, order and extra
 * columns do not matter); only the columns the service uses are read — name,
 * email, phone, organization, calling, sustained — and every other column
 * (gender, age, birth date, set apart, anything else) is read past: its cells
 * are never copied out of the table, and its label is listed as ignored.
 */

type Field = 'name' | 'email' | 'phone' | 'organization' | 'calling' | 'sustained'

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
  callingname: 'calling',
  position: 'calling',
  sustained: 'sustained',
  datesustained: 'sustained',
}

const labelKey = (label: string): string =>
  label
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z]/g, '')

/** Where each used field is, by column index; the first column of a field wins. */
function mapHeader(cells: readonly string[]): Partial<Record<Field, number>> {
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

const EXPECTED_COLUMNS =
  'Expected the header row of an LCR report: "Members with Callings" (Name, Gender, Age, Birth Date, Phone, ' +
  'Organization, Calling, Sustained, Set Apart), "Organizations and Callings" (Organization, Calling, Name, ' +
  'Sustained, Set Apart) or the member list (Name, Gender, Age, Birth Date, Phone Number, E-mail)'

/** One data row as kept: plain text, never gender, age or birth date. */
export interface ReportRow {
  /** 1 = the first data row under the header. */
  row: number
  fname: string
  lname: string
  email: string | null
  phone: string | null
  calling: string | null
  organization: string | null
  /** YYYY-MM-DD. */
  sustained: string | null
}

export interface Report {
  kind: ImportKind
  ignored_columns: string[]
  rows: ReportRow[]
  problems: ImportProblem[]
  /** Rows left out because of a problem. */
  skipped: number
}

const clean = (cell: string | undefined): string => (cell ?? '').replaceAll('\u0000', '').replace(/\s+/g, ' ').trim()

/** "Last, First" or "First Last" (the last word is the last name). */
export function splitName(raw: string): { fname: string; lname: string } | null {
  const name = clean(raw)
  const comma = name.indexOf(',')
  let fname: string
  let lname: string
  if (comma >= 0) {
    lname = name.slice(0, comma).trim()
    fname = name.slice(comma + 1).trim()
  } else {
    const space = name.lastIndexOf(' ')
    if (space < 0) return null
    fname = name.slice(0, space).trim()
    lname = name.slice(space + 1).trim()
  }
  if (!fname || !lname || fname.length > 100 || lname.length > 100) return null
  return { fname, lname }
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/** "29 Apr 1971" (LCR's) or YYYY-MM-DD → YYYY-MM-DD; null for anything else. */
export function parseDate(raw: string): string | null {
  const text = clean(raw)
  let y: number, m: number, d: number
  const lcr = /^(\d{1,2}) ([A-Za-z]{3,9})\.? (\d{4})$/.exec(text)
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (lcr) {
    d = Number(lcr[1])
    m = MONTHS.indexOf(lcr[2]!.slice(0, 3).toLowerCase()) + 1
    y = Number(lcr[3])
  } else if (iso) {
    y = Number(iso[1])
    m = Number(iso[2])
    d = Number(iso[3])
  } else return null
  if (m < 1 || y < 1800) return null
  const date = new Date(Date.UTC(y, m - 1, d))
  if (date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null
  return date.toISOString().slice(0, 10)
}

const EMAIL = /^[^\s@]+@[^\s@]+$/

/**
 * The report in a table: its kind, its kept rows and its problems. No header
 * row (within the first 50 rows) → 422 naming the expected columns; a
 * requested kind the report is not → 422 too.
 */
export function readReport(table: readonly (readonly string[])[], requested: ImportKind | 'auto'): Report {
  const at = table.slice(0, 50).findIndex((cells) => isHeaderRow(cells.map(clean)))
  if (at < 0) throw invalid(['body'], `The report's columns were not recognised. ${EXPECTED_COLUMNS}`)
  const header = table[at]!.map(clean)
  const map = mapHeader(header)
  const kind: ImportKind = map.calling !== undefined ? 'callings' : 'members'
  if (requested !== 'auto' && requested !== kind) {
    throw invalid(
      ['body'],
      requested === 'callings'
        ? 'This is a member list, not a callings report: a callings report has Name and Calling columns'
        : 'This is a callings report, not a member list: a member list has Name and Phone or E-mail columns',
    )
  }
  const used = new Set(Object.values(map))
  const ignored_columns = header.filter((label, i) => label !== '' && !used.has(i))
  const headerKey = header.map(labelKey).join('|')

  const rows: ReportRow[] = []
  const problems: ImportProblem[] = []
  let skipped = 0
  let n = 0
  for (const cells of table.slice(at + 1)) {
    const get = (field: Field) => (map[field] === undefined ? '' : clean(cells[map[field]!]))
    if (cells.every((c) => clean(c) === '')) continue
    if (cells.map((c) => labelKey(clean(c))).join('|') === headerKey) continue // a repeated header
    n += 1
    const row = n
    const rawName = get('name')
    const calling = get('calling')
    if (rawName === '') {
      // A vacant calling in a callings report lists no name: nothing to import.
      if (kind === 'callings' && calling !== '') continue
      problems.push({ row, code: 'missing_name', message: 'This row has no name' })
      skipped += 1
      continue
    }
    const name = splitName(rawName)
    if (!name) {
      problems.push({
        row,
        code: 'invalid_name',
        message: `"${rawName.slice(0, 120)}" is not a name as "Last, First" (each part 1–100 characters)`,
      })
      skipped += 1
      continue
    }
    const rawEmail = get('email')
    if (rawEmail !== '' && (!EMAIL.test(rawEmail) || rawEmail.length > 254)) {
      problems.push({ row, code: 'invalid_email', message: `"${rawEmail.slice(0, 120)}" is not an email address` })
      skipped += 1
      continue
    }
    if (calling.length > 100) {
      problems.push({ row, code: 'invalid_calling', message: 'The calling name is longer than 100 characters' })
      skipped += 1
      continue
    }
    let phone: string | null = get('phone') || null
    if (phone !== null && phone.length > 50) {
      problems.push({ row, code: 'invalid_phone', message: 'The phone number is longer than 50 characters; left out' })
      phone = null
    }
    const rawSustained = get('sustained')
    const sustained = rawSustained === '' ? null : parseDate(rawSustained)
    if (rawSustained !== '' && sustained === null) {
      problems.push({
        row,
        code: 'invalid_date',
        message: `"${rawSustained.slice(0, 40)}" is not a date like "29 Apr 1971"; the sustained date is left out`,
      })
    }
    rows.push({
      row,
      ...name,
      email: rawEmail || null,
      phone,
      calling: kind === 'callings' ? calling || null : null,
      organization: get('organization').slice(0, 200) || null,
      sustained,
    })
  }
  return { kind, ignored_columns, rows, problems, skipped }
}
