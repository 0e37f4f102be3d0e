import type { ErrorCode } from '@stake/contract'

export interface FieldError {
  loc: string[]
  msg: string
  type: string
}

/**
 * The one error type services throw. The error handler (plugins/errors.ts) is
 * the only place that turns it into a response body. Its fields are declared
 * apart from the constructor: the report reader's worker thread runs this
 * file with node's own type stripping (modules/imports/reader.ts).
 */
export class AppError extends Error {
  readonly status: number
  readonly code: ErrorCode | null
  readonly headers: Record<string, string>
  constructor(status: number, code: ErrorCode | null, message: string, headers: Record<string, string> = {}) {
    super(message)
    this.status = status
    this.code = code
    this.headers = headers
  }
}

/** A 422 raised by a service for a rule the schema cannot express. */
export class ValidationFailure extends Error {
  readonly errors: FieldError[]
  constructor(errors: FieldError[]) {
    super('Validation failed')
    this.errors = errors
  }
}

export const notFound = (what: string) => new AppError(404, 'not_found', `${what} not found`)
export const forbidden = (message = 'You are not allowed to do this') => new AppError(403, 'forbidden', message)
export const conflict = (code: ErrorCode, message: string) => new AppError(409, code, message)
export const unauthorized = (message = 'Not authenticated') =>
  new AppError(401, null, message, { 'WWW-Authenticate': 'Bearer' })
/** A signed-in user who must change his password first (docs/api-reference.md §3). */
export const PASSWORD_CHANGE_REQUIRED = () => new AppError(403, 'password_change_required', 'Password change required')
export const invalid = (loc: string[], msg: string, type = 'value_error') => new ValidationFailure([{ loc, msg, type }])

/** Seconds a client should wait before retrying a 503 (a database coming back, an instance being replaced). */
const RETRY_AFTER_SECONDS = 5

/** 503: the service cannot do this now but will again (docs/api-reference.md §2: `unavailable`). */
export const unavailable = (message: string) =>
  new AppError(503, 'unavailable', message, { 'Retry-After': String(RETRY_AFTER_SECONDS) })
