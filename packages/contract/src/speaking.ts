import { Type, type Static } from 'typebox'
import { Id } from './common.ts'

/** docs/api-reference.md §8: the calendar covers the years 2000–2100. */
export const SpeakingYear = Type.Integer({ minimum: 2000, maximum: 2100 })
export const SpeakingMonth = Type.Integer({ minimum: 1, maximum: 12 })

/**
 * A ward id or null, as one `type: ['integer', 'null']` rather than a union: under
 * Ajv's type coercion a union lets 0 or false slip through as null (and an
 * array as itself); with a type list they are refused (422).
 */
const NullableWardIdInput = Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1, maximum: 2147483647 })
const NullableWardId = Type.Union([Id, Type.Null()])

export const SpeakingYearParams = Type.Object({ year: SpeakingYear })
export type SpeakingYearParams = Static<typeof SpeakingYearParams>

export const SpeakingMonthParams = Type.Object({ year: SpeakingYear, month: SpeakingMonth })
export type SpeakingMonthParams = Static<typeof SpeakingMonthParams>

export const SpeakingWard = Type.Object({ id: Id, name: Type.String() })
export type SpeakingWard = Static<typeof SpeakingWard>

export const SpeakingHolder = Type.Object({ id: Id, fname: Type.String(), lname: Type.String() })
export type SpeakingHolder = Static<typeof SpeakingHolder>

/** One seat in one month: the ward it speaks in (null = not speaking). */
export const SpeakingCell = Type.Object({
  month: SpeakingMonth,
  ward_id: NullableWardId,
  /** True when the seat's ward that month is pinned by an override (its own, or the other half of a swap). */
  overridden: Type.Boolean(),
  /** The month's topic (the same for every seat), or null. */
  topic: Type.Union([Type.Null(), Type.String()]),
})
export type SpeakingCell = Static<typeof SpeakingCell>

export const SpeakingRow = Type.Object({
  slot_id: Id,
  high_councilor_id: Type.Union([Type.Null(), Id]),
  high_councilor: Type.Union([Type.Null(), SpeakingHolder]),
  months: Type.Array(SpeakingCell, { minItems: 12, maxItems: 12 }),
})
export type SpeakingRow = Static<typeof SpeakingRow>

/** A month's topic; in the calendar every month is listed, with nulls when none is set. */
export const SpeakingMonthTopic = Type.Object({
  month: SpeakingMonth,
  topic: Type.Union([Type.Null(), Type.String()]),
  reference: Type.Union([Type.Null(), Type.String()]),
})
export type SpeakingMonthTopic = Static<typeof SpeakingMonthTopic>

/** GET /speaking/calendar/{year} (docs/api-reference.md §8). */
export const SpeakingCalendar = Type.Object({
  year: SpeakingYear,
  wards: Type.Array(SpeakingWard),
  rows: Type.Array(SpeakingRow),
  topics: Type.Array(SpeakingMonthTopic, { minItems: 12, maxItems: 12 }),
})
export type SpeakingCalendar = Static<typeof SpeakingCalendar>

/** PUT /speaking/calendar/override. `ward_id: null` = not speaking that month. */
export const SpeakingOverrideBody = Type.Object({
  high_councilor_id: Id,
  month: SpeakingMonth,
  year: SpeakingYear,
  ward_id: NullableWardIdInput,
})
export type SpeakingOverrideBody = Static<typeof SpeakingOverrideBody>

/** DELETE /speaking/calendar/override?high_councilor_id&month&year */
export const SpeakingOverrideQuery = Type.Object({
  high_councilor_id: Id,
  month: SpeakingMonth,
  year: SpeakingYear,
})
export type SpeakingOverrideQuery = Static<typeof SpeakingOverrideQuery>

/** A set topic: GET /speaking/topics/{year} lists only months that have one. */
export const SpeakingTopic = Type.Object({
  month: SpeakingMonth,
  topic: Type.String(),
  reference: Type.Union([Type.Null(), Type.String()]),
})
export type SpeakingTopic = Static<typeof SpeakingTopic>

export const SpeakingTopicBody = Type.Object({
  topic: Type.String({ minLength: 1, maxLength: 200 }),
  reference: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 2000 })])),
})
export type SpeakingTopicBody = Static<typeof SpeakingTopicBody>

/** POST /speaking/feed (docs/api-reference.md §13): the secret iCalendar address; shown once, stored only hashed. */
export const SpeakingFeed = Type.Object({ url: Type.String() })
export type SpeakingFeed = Static<typeof SpeakingFeed>

/** GET /speaking/feed: whether the caller has a feed and since when (created or last rotated); never the address. */
export const SpeakingFeedStatus = Type.Object({
  active: Type.Boolean(),
  created_at: Type.Union([Type.Null(), Type.String()]),
})
export type SpeakingFeedStatus = Static<typeof SpeakingFeedStatus>

/** GET /speaking/feed/{token}.ics — checked by the handler, so that a malformed name is a plain 404. */
export const SpeakingFeedParams = Type.Object({ file: Type.String({ maxLength: 200 }) })
export type SpeakingFeedParams = Static<typeof SpeakingFeedParams>
