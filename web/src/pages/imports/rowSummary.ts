import type { ImportPreview } from '../../api/types'

/**
 * What became of each of the report's rows, one answer per row, so the
 * counts a clerk reads add up to the report's rows (`rows_total`). A row is
 * counted once, by the first of: a vacant calling; a possible match still to
 * answer; its seat (filled, changing hands, already so); its person (a member
 * list: new, details changed, already so); a problem that left it out; else
 * it repeats what an earlier row says (the same person again).
 */
const ROW_KINDS = [
  'fill',
  'replace',
  'seatKept',
  'vacant',
  'toConfirm',
  'newPerson',
  'personUpdate',
  'personKept',
  'leftOut',
  'repeat',
] as const
type RowKind = (typeof ROW_KINDS)[number]

type Shown = Pick<ImportPreview, 'changes' | 'problems' | 'vacant' | 'rows_total'>

function kindOfRow(row: number, shown: Shown, vacant: ReadonlySet<number>): RowKind {
  if (vacant.has(row)) return 'vacant'
  const here = shown.changes.filter((c) => c.row === row)
  const person = here.find((c) => c.target === 'user')
  if (person?.action === 'confirm') return 'toConfirm'
  const seat = here.find((c) => c.target === 'slot')
  if (seat?.action === 'fill') return seat.released_user_id ? 'replace' : 'fill'
  if (seat?.action === 'unchanged') return 'seatKept'
  if (person?.action === 'create') return 'newPerson'
  if (person?.action === 'update') return 'personUpdate'
  if (person?.action === 'unchanged') return 'personKept'
  if (shown.problems.some((p) => p.row === row)) return 'leftOut'
  return 'repeat'
}

/** How many of the report's rows are of each kind (kinds of no row left out), in `ROW_KINDS` order. */
export function rowCounts(shown: Shown): { kind: RowKind; count: number }[] {
  const vacant = new Set(shown.vacant.map((v) => v.row))
  const counts = new Map<RowKind, number>()
  for (let row = 1; row <= shown.rows_total; row++) {
    const kind = kindOfRow(row, shown, vacant)
    counts.set(kind, (counts.get(kind) ?? 0) + 1)
  }
  return ROW_KINDS.filter((kind) => counts.has(kind)).map((kind) => ({ kind, count: counts.get(kind)! }))
}

/** What the import does besides the rows' own seats: people it adds, callings it creates, seats it frees. */
export function besidesRows(shown: Pick<ImportPreview, 'changes' | 'kind'>) {
  const users = shown.changes.filter((c) => c.target === 'user')
  const created = users.filter((c) => c.action === 'create')
  return {
    // A member list's rows are its people, already counted.
    newPeople: shown.kind === 'callings' ? created.length : 0,
    rosterOnly: shown.kind === 'callings' ? created.filter((c) => !c.email).length : 0,
    updated: shown.kind === 'callings' ? users.filter((c) => c.action === 'update').length : 0,
    newCallings: shown.changes.filter((c) => c.target === 'calling' && c.action === 'create').length,
    released: shown.changes.filter((c) => c.target === 'slot' && c.action === 'release').length,
  }
}

/** The possible matches of the preview, each with the importer's answer so far (null: not answered). */
export function possibleMatches(shown: Pick<ImportPreview, 'changes'>) {
  return shown.changes
    .filter((c) => c.target === 'user' && c.candidate && c.row !== null)
    .map((c) => ({
      row: c.row!,
      name: `${c.fname ?? ''} ${c.lname ?? ''}`.trim(),
      candidate: `${c.candidate!.fname} ${c.candidate!.lname}`,
      answer: c.action === 'confirm' ? null : (c.match ?? null),
    }))
}
