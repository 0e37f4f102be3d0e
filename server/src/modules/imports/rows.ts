import type { ImportKind, ImportProblem } from '@stake/contract'
import { invalid } from '../../errors.ts'
import { isVacant, notANameReason, parseDate, parseSetApart, splitName } from './names.ts'
import { EXPECTED_COLUMNS, labelKey, mapHeader, READ_PAST, type Field } from './report.ts'
import { clean, segmentRecords, type IgnoredLine, type Segments } from './segments.ts'
import { MAX_ROWS } from './limits.ts'

/** One data row as kept: plain text, never gender, age or birth date. */
export interface ReportRow {
  /** 1 = the first data row of the report (over all its tables). */
  row: number
  fname: string
  lname: string
  email: string | null
  phone: string | null
  /** Null in a member list and in a roster table of a callings report: a person, no seat. */
  calling: string | null
  organization: string | null
  /** YYYY-MM-DD. */
  sustained: string | null
  /** Set apart: its date (YYYY-MM-DD), "yes", or null. */
  set_apart: string | null
  /** The unit the row names (a member list's or a stake report's unit column). */
  unit: string | null
  /**
   * Two people of one name in this report: which one (1, 2, …), in the order
   * their age or birth date first appears; those are never kept.
   */
  twin: number | null
}

/** A calling the report lists as vacant ("Calling Vacant", or no name). */
export interface VacantRow {
  row: number
  calling: string
  organization: string | null
  unit: string | null
}

export interface Report {
  kind: ImportKind
  ignored_columns: string[]
  ignored_lines: IgnoredLine[]
  rows: ReportRow[]
  vacant: VacantRow[]
  problems: ImportProblem[]
  /** Rows left out because of a problem. */
  skipped: number
  /** Every data row the report has: rows + vacant + skipped. */
  total: number
}

const EMAIL = /^[^\s@]+@[^\s@]+$/

/** Custom callings carry a leading "* " in LCR: the calling is the name without it. */
const callingName = (cell: string) => cell.replace(/^\*\s*/, '').trim()

/**
 * The report's rows, vacant callings, page text and problems. No table → 422
 * naming the expected columns; a requested kind the report is not → 422 too.
 * A bare table (tests, callers with cells) is read as one.
 */
export function readReport(input: Segments | readonly (readonly string[])[], requested: ImportKind | 'auto'): Report {
  const segments: Segments = Array.isArray(input)
    ? segmentRecords((input as string[][]).map((cells, i) => ({ line: i + 1, cells })))
    : (input as Segments)
  if (segments.tables.length === 0) {
    throw invalid(['body'], `The report's columns were not recognised. ${EXPECTED_COLUMNS}`)
  }
  const maps = segments.tables.map((t) => mapHeader(t.header))
  const kind: ImportKind = maps.some((m) => m.calling !== undefined) ? 'callings' : 'members'
  if (requested !== 'auto' && requested !== kind) {
    throw invalid(
      ['body'],
      requested === 'callings'
        ? 'This is a member list, not a callings report: a callings report has Name and Calling columns'
        : 'This is a callings report, not a member list: a member list has Name and Phone or E-mail columns',
    )
  }
  const total = segments.tables.reduce((n, t) => n + t.rows.length, 0)
  if (total > MAX_ROWS) {
    throw invalid(['body'], `The report has ${total} rows; at most ${MAX_ROWS} rows are read at once`, 'too_many_rows')
  }

  const ignored_columns: string[] = []
  const rows: ReportRow[] = []
  const vacant: VacantRow[] = []
  const problems: ImportProblem[] = []
  let skipped = 0
  let n = 0
  // Two people of one name are told apart by their age or birth date (read here, never kept).
  const tellers = new Map<string, string[]>()

  segments.tables.forEach((table, t) => {
    const map = maps[t]!
    const used = new Set(
      Object.entries(map)
        .filter(([f]) => !READ_PAST.has(f as Field))
        .map(([, i]) => i),
    )
    for (const [i, label] of table.header.entries()) {
      if (label !== '' && !used.has(i) && !ignored_columns.includes(label)) ignored_columns.push(label)
    }
    const first = n + 1
    for (const { cells, organization: heading } of table.rows) {
      const get = (field: Field) => (map[field] === undefined ? '' : clean(cells[map[field]!]))
      n += 1
      const row = n
      const rawName = get('name')
      const calling = callingName(get('calling'))
      // A table with its own organization column says it row by row; the headings stand in otherwise.
      const organization =
        (map.organization !== undefined ? get('organization') : (heading ?? '')).slice(0, 200) || null
      const unit = get('unit').slice(0, 200) || null
      const skip = (code: string, message: string) => {
        problems.push({ row, code, message })
        skipped += 1
      }
      if (map.calling !== undefined && calling !== '' && (rawName === '' || isVacant(rawName))) {
        vacant.push({ row, calling: calling.slice(0, 100), organization, unit })
        continue
      }
      if (rawName === '') {
        skip('missing_name', 'This row has no name')
        continue
      }
      if (isVacant(rawName)) {
        skip('missing_name', 'This row says "Calling Vacant" but names no calling')
        continue
      }
      const notName = notANameReason(rawName)
      if (notName) {
        skip('not_a_name', `"${rawName.slice(0, 60)}" stands in the name column but is ${notName}, not a person`)
        continue
      }
      const name = splitName(rawName)
      if (!name) {
        skip('invalid_name', `"${rawName.slice(0, 120)}" is not a name as "Last, First" (each part 1–100 characters)`)
        continue
      }
      const rawEmail = get('email')
      if (rawEmail !== '' && (!EMAIL.test(rawEmail) || rawEmail.length > 254)) {
        skip('invalid_email', `"${rawEmail.slice(0, 120)}" is not an email address`)
        continue
      }
      if (calling.length > 100) {
        skip('invalid_calling', 'The calling name is longer than 100 characters')
        continue
      }
      let phone: string | null = get('phone') || null
      if (phone !== null && phone.length > 50) {
        problems.push({
          row,
          code: 'invalid_phone',
          message: 'The phone number is longer than 50 characters; left out',
        })
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
      const key = `${labelKey(name.fname)}|${labelKey(name.lname)}`
      const teller = [get('birth'), get('birth') ? '' : get('age')].join('|')
      let twin: number | null = null
      if (teller !== '|') {
        const seen = tellers.get(key) ?? []
        if (!seen.includes(teller)) seen.push(teller)
        tellers.set(key, seen)
        twin = seen.indexOf(teller) + 1
      }
      rows.push({
        row,
        ...name,
        email: rawEmail || null,
        phone,
        calling: map.calling !== undefined ? calling || null : null,
        organization,
        sustained,
        set_apart: parseSetApart(get('set_apart')),
        unit,
        twin,
      })
    }
    const read = n - first + 1
    if (table.count && table.count.n !== read) {
      problems.push({
        row: null,
        code: 'count_mismatch',
        message: `The report says "Count: ${table.count.n}" (line ${table.count.line}) but ${read} rows were read above it; check those rows`,
      })
    }
  })
  // A name seen with one age or birth date only is one person: no number needed.
  for (const r of rows) {
    if (r.twin !== null && (tellers.get(`${labelKey(r.fname)}|${labelKey(r.lname)}`)?.length ?? 0) < 2) r.twin = null
  }
  return { kind, ignored_columns, ignored_lines: segments.ignored, rows, vacant, problems, skipped, total: n }
}
