import { Type, type Static } from 'typebox'

import { PERMISSIONS, type Permission } from './permissions.ts'

export { PERMISSIONS, type Permission }

export const PermissionName = Type.Union([
  Type.Literal('users.manage'),
  Type.Literal('callings.manage'),
  Type.Literal('wards.manage'),
  Type.Literal('speaking.manage'),
  Type.Literal('proposals.submit'),
  Type.Literal('proposals.view'),
  Type.Literal('proposals.manage'),
])

/** Positive integer id in a path segment (docs/api-reference.md §1). */
export const Id = Type.Integer({ minimum: 1, maximum: 2147483647 })

/** ISO 8601 UTC timestamp with `Z`. */
export const Timestamp = Type.String({ format: 'date-time' })

/** `{detail, code?}` — every non-validation error (docs/api-reference.md §2). */
export const ErrorBody = Type.Object({
  detail: Type.String(),
  code: Type.Optional(Type.String()),
})
export type ErrorBody = Static<typeof ErrorBody>

/** FastAPI-style 422 body (docs/api-reference.md §2). */
export const ValidationErrorBody = Type.Object({
  detail: Type.Array(
    Type.Object({
      loc: Type.Array(Type.String()),
      msg: Type.String(),
      type: Type.String(),
    }),
  ),
})
export type ValidationErrorBody = Static<typeof ValidationErrorBody>

/** Error codes carried in `code` (docs/api-reference.md §2 and domain sections). */
export const ERROR_CODES = [
  'password_change_required',
  'forbidden',
  'not_found',
  'duplicate_name',
  'duplicate_email',
  'slot_filled',
  'stale_stage',
  'wrong_stage',
  'system_defined',
  'wrong_password',
  'conflict',
  'in_use',
  'last_manager',
  'too_many_attempts',
  'cross_site',
  /** 401: a shared-computer session ended after 30 minutes without activity (docs/api-reference.md §13). */
  'session_idle',
  /** 503: concurrent changes outlasted the server's retries; try again after Retry-After seconds. */
  'busy',
  'unavailable',
  /** docs/api-reference.md §12: presenting a proposal a second time in one ward. */
  'already_presented',
  /** docs/api-reference.md §12: recording a proposal whose calling has no vacant slot. */
  'no_vacancy',
  /** docs/api-reference.md §14: fewer High Councilor seats than the highest filled one. */
  'seats_filled',
  /** docs/api-reference.md §14: another stake of the deployment has this slug. */
  'slug_taken',
  /** docs/api-reference.md §15/§16: a roster-only user (no email) cannot be invited or get a password. */
  'no_email',
  /** docs/api-reference.md §15: the stake changed since the import's preview; it was applied already. */
  'stale_import',
  'already_applied',
  /** docs/api-reference.md §15: a report past a limit (size, pages, text, memory): the message names it. */
  'report_too_large',
  /** docs/api-reference.md §15: an import limit (one read at a time, open previews, imports an hour). */
  'import_limit',
  /** docs/api-reference.md §15: a possible match is neither confirmed nor rejected yet. */
  'confirm_pending',
  /** docs/api-reference.md §18: the time was booked by someone else a moment earlier. */
  'slot_taken',
  /** docs/api-reference.md §18: the link already has a booking (move it instead). */
  'already_booked',
  /** docs/api-reference.md §16: an unknown, used or expired password-reset token. */
  'invalid_token',
  /** docs/api-reference.md §16: a deactivated user cannot be invited. */
  'inactive',
  /** docs/api-reference.md §16: a passkey registration that did not verify. */
  'invalid_passkey',
  /** docs/SECURITY.md "Exports": an imported webhook has no address until it is entered again. */
  'url_required',
  /** 414: a path parameter longer than any the service has (a token of 100,000 characters). */
  'uri_too_long',
  /** 400: a path that does not decode (bad percent-encoding). */
  'bad_url',
  /** docs/api-reference.md §7: advancing past an interview scheduled and not held (without ?waive=true). */
  'interview_not_held',
  /** docs/api-reference.md §7: the interviewer already has an interview or appointment at that time. */
  'interviewer_busy',
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

/**
 * `limit`/`offset` pagination: limit 0–200 (default 50; larger is a 422, not
 * clamped), offset ≥ 0 and within a 32-bit integer (PostgreSQL's OFFSET takes
 * a bigint, but nothing sensible lies beyond). The total goes in X-Total-Count.
 */
export const Limit = Type.Integer({ minimum: 0, maximum: 200, default: 50 })
export const Offset = Type.Integer({ minimum: 0, maximum: 2147483647, default: 0 })
