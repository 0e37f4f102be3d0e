import { Type, type Static } from 'typebox'
import { Id } from './common.ts'

/** Minutes after midnight: 0–1439 (600 = 10:00) — docs/api-reference.md §6. */
export const StartTime = Type.Integer({ minimum: 0, maximum: 1439 })

/** Which Sunday of the month the ward's speaker comes: 1–5, 5 = the last when a month has only four (docs/api-reference.md §13). */
export const SpeakingSunday = Type.Integer({ minimum: 1, maximum: 5 })

export const Ward = Type.Object({
  id: Id,
  name: Type.String(),
  /** The user holding the ward's Bishop slot, or null. */
  bishop_id: Type.Union([Id, Type.Null()]),
  start_time: StartTime,
  speaking_sunday: SpeakingSunday,
})
export type Ward = Static<typeof Ward>

/**
 * POST and PUT. `bishop_id`: a user id fills the Bishop slot (replacing the
 * current holder on PUT), null releases it, omitted leaves it as it is.
 */
export const WardBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  start_time: StartTime,
  bishop_id: Type.Optional(Type.Union([Id, Type.Null()])),
  /** Omitted: 1 on POST, unchanged on PUT. */
  speaking_sunday: Type.Optional(SpeakingSunday),
})
export type WardBody = Static<typeof WardBody>
