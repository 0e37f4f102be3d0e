import { Type, type Static } from 'typebox'
import { Id } from './common.ts'
import { DateOnly, Proposal, Release } from './proposals.ts'
import { Ward } from './wards.ts'

/** Sustainings and records (docs/api-reference.md §12). */

export const SustainingParams = Type.Object({ ward_id: Id })

/** One proposal to present in the ward, with the releases that go with it. */
export const SustainingItem = Type.Object({ proposal: Proposal, releases: Type.Array(Release) })
export type SustainingItem = Static<typeof SustainingItem>

/** GET /sustainings/{ward_id}: what the ward presents for sustaining. */
export const Sustainings = Type.Object({ ward: Ward, items: Type.Array(SustainingItem) })
export type Sustainings = Static<typeof Sustainings>

export const SCRIPT_LANGUAGES = ['en', 'es'] as const
export type ScriptLanguage = (typeof SCRIPT_LANGUAGES)[number]

export const ScriptQuery = Type.Object({
  /** Default: the caller's own language. */
  lang: Type.Optional(Type.Union([Type.Literal('en'), Type.Literal('es')])),
})
export type ScriptQuery = Static<typeof ScriptQuery>

/** POST /calling-kanban/proposals/{id}/presented. */
export const PresentedBody = Type.Object({
  ward_id: Id,
  /** The Sunday it was presented; default today in the stake's time zone. */
  date: Type.Optional(DateOnly),
})
export type PresentedBody = Static<typeof PresentedBody>

/** The columns of GET /calling-kanban/proposals.csv, in order (docs/api-reference.md §12). */
export const ARCHIVE_CSV_COLUMNS = [
  'id',
  'fname',
  'lname',
  'proposed_calling',
  'ward',
  'scope',
  'is_release',
  'kind',
  'office',
  'stage',
  'submitted_at',
  'stage_changed_at',
  'interview_date',
  'presented_in',
] as const
