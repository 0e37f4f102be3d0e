import { Type, type Static } from 'typebox'
import { Id } from './common.ts'

/** Importing a stake's people and callings from LCR reports (docs/api-reference.md §15). */

export const IMPORT_KINDS = ['members', 'callings'] as const
export type ImportKind = (typeof IMPORT_KINDS)[number]

export const ImportQuery = Type.Object({
  /** `auto` (default): recognised from the report's header row. */
  kind: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('members'), Type.Literal('callings')])),
  /** The ward whose slots the report fills; absent: stake slots. */
  ward_id: Type.Optional(Id),
  /** Also release the ward's slots whose holder the *Callings* report does not list. */
  release_missing: Type.Optional(Type.Boolean()),
})
export type ImportQuery = Static<typeof ImportQuery>

const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(t: T) =>
  Type.Union([t, Type.Null()])

/**
 * One change the import makes (or would make). `target` says what it is about,
 * `action` what happens to it; `row` is the report's data row (1 = the first
 * row under the header), null for a change no row asked for (a calling to
 * create, a slot `release_missing` frees).
 */
export const ImportChange = Type.Object({
  row: Nullable(Type.Integer()),
  target: Type.Union([Type.Literal('user'), Type.Literal('calling'), Type.Literal('slot')]),
  action: Type.Union([
    Type.Literal('create'),
    Type.Literal('update'),
    Type.Literal('fill'),
    Type.Literal('release'),
    Type.Literal('unchanged'),
    /** A possible match the importer confirms or rejects before applying (POST /imports/{id}/matches). */
    Type.Literal('confirm'),
  ]),
  /** A possible match: the user the report's name may be (a middle name added, a preferred first name). */
  candidate: Type.Optional(Type.Object({ user_id: Id, fname: Type.String(), lname: Type.String() })),
  /** The importer's answer to a possible match: the user is this person, or a new person. */
  match: Type.Optional(Type.Union([Type.Literal('accepted'), Type.Literal('rejected')])),
  /** The person: an existing user's id (null for one to be created). */
  user_id: Type.Optional(Nullable(Id)),
  fname: Type.Optional(Type.String()),
  lname: Type.Optional(Type.String()),
  email: Type.Optional(Nullable(Type.String())),
  phone: Type.Optional(Nullable(Type.String())),
  /** The fields an update changes: `{field: {from, to}}`. */
  changes: Type.Optional(
    Type.Record(Type.String(), Type.Object({ from: Nullable(Type.String()), to: Nullable(Type.String()) })),
  ),
  calling: Type.Optional(Type.String()),
  /** Null for a calling the import creates. */
  calling_id: Type.Optional(Nullable(Id)),
  slot_id: Type.Optional(Nullable(Type.Integer())),
  /**
   * A slot change's: the seat's ward. A user change's: the ward the report
   * places the person in (its unit column names a ward of the stake), with
   * `changes.ward` (ward names) when an existing user moves.
   */
  ward_id: Type.Optional(Nullable(Id)),
  /** A fill that first releases the slot's current holder: who that is. */
  released_user_id: Type.Optional(Nullable(Id)),
  released_fname: Type.Optional(Type.String()),
  released_lname: Type.Optional(Type.String()),
  organization: Type.Optional(Nullable(Type.String())),
  /** YYYY-MM-DD. */
  sustained: Type.Optional(Nullable(Type.String())),
  /**
   * A seat's set apart as the report says: a date (YYYY-MM-DD), "yes" (only
   * marked), or null (not set apart, or not said). Kept with the seat; a kept
   * seat whose set apart the report tells is an `update` with
   * `changes.set_apart`.
   */
  set_apart: Type.Optional(Nullable(Type.String())),
})
export type ImportChange = Static<typeof ImportChange>

export const IMPORT_PROBLEM_CODES = [
  'ambiguous_person',
  'forbidden_seat',
  'missing_name',
  'invalid_name',
  'invalid_email',
  'email_unavailable',
  'email_differs',
  'invalid_date',
  'invalid_calling',
  'invalid_phone',
  'inactive_user',
  'no_free_seat',
  'needs_ward',
  'duplicate_seat',
  'forbidden_user',
  /** A date, a phone number, a count or page text in the name column: never a person. */
  'not_a_name',
  /** A table's own "Count: N" differs from the rows read under it. */
  'count_mismatch',
  /** Two people of one name that cannot be told apart (no email, age or birth date). */
  'same_name',
  /** A calling of a ward in a stake-wide report whose row names no ward of the stake. */
  'needs_ward_name',
] as const
export type ImportProblemCode = (typeof IMPORT_PROBLEM_CODES)[number]

export const ImportProblem = Type.Object({
  row: Nullable(Type.Integer()),
  code: Type.String(),
  message: Type.String(),
})
export type ImportProblem = Static<typeof ImportProblem>

export const ImportSummary = Type.Object({
  users: Type.Object({ create: Type.Integer(), update: Type.Integer(), unchanged: Type.Integer() }),
  callings: Type.Object({ create: Type.Integer() }),
  /** `update`: kept seats whose set apart the report tells. */
  slots: Type.Object({
    fill: Type.Integer(),
    update: Type.Integer(),
    release: Type.Integer(),
    unchanged: Type.Integer(),
  }),
  /** Rows left out because of a problem. */
  skipped: Type.Integer(),
})
export type ImportSummary = Static<typeof ImportSummary>

/** A line of the report that is not data: page text, a heading, a footer (docs/api-reference.md §15). */
export const ImportIgnoredLine = Type.Object({
  line: Type.Integer(),
  text: Type.String(),
  /** page_text, title, unit, heading, printed, page_number, copyright, count, room, add_another, legend, repeated_header. */
  reason: Type.String(),
})
export type ImportIgnoredLine = Static<typeof ImportIgnoredLine>

/** A calling the report lists as vacant ("Calling Vacant"): nobody is seated, nobody is created. */
export const ImportVacant = Type.Object({
  row: Type.Integer(),
  calling: Type.String(),
  organization: Nullable(Type.String()),
  ward_id: Nullable(Id),
})
export type ImportVacant = Static<typeof ImportVacant>

export const ImportPreview = Type.Object({
  id: Id,
  kind: Type.Union([Type.Literal('members'), Type.Literal('callings')]),
  ward_id: Nullable(Id),
  release_missing: Type.Boolean(),
  status: Type.Union([Type.Literal('preview'), Type.Literal('applied')]),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time' }),
  /** Report columns read past and never kept (gender, age, birth date, anything unused). */
  ignored_columns: Type.Array(Type.String()),
  summary: ImportSummary,
  changes: Type.Array(ImportChange),
  problems: Type.Array(ImportProblem),
  /** Every line of the report that is not a data row, folded away in the wizard. */
  ignored_lines: Type.Array(ImportIgnoredLine),
  vacant: Type.Array(ImportVacant),
  /** The report's data rows: people and seats read, vacant callings, and rows left out (summary.skipped). */
  rows_total: Type.Integer(),
})
export type ImportPreview = Static<typeof ImportPreview>

/** POST /imports/{id}/matches: the answer to the possible match of a row. */
export const ImportMatchAnswer = Type.Object({
  /** The row of the `confirm` change (its person's first row). */
  row: Type.Integer({ minimum: 1 }),
  accept: Type.Boolean(),
})
export type ImportMatchAnswer = Static<typeof ImportMatchAnswer>

export const ImportApplied = Type.Object({ summary: ImportSummary })
export type ImportApplied = Static<typeof ImportApplied>
