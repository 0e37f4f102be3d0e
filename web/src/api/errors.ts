/**
 * The API's errors as the client shows them: `ApiError` carries the status,
 * the error code, the 422 field errors and Retry-After, with a message in the
 * client's language. The bottom of the data layer: it imports nothing of it.
 */
import i18next from 'i18next'

export interface FieldError {
  loc: (string | number)[]
  msg: string
  type?: string
}

/**
 * A message in the client's language (common `errors.*`). Before i18next is
 * initialised (unit tests under node) the English fallback is used.
 */
function text(key: string, fallback: string, options?: Record<string, unknown>): string {
  return i18next.isInitialized ? i18next.t(key, { ns: 'common', defaultValue: fallback, ...options }) : fallback
}

/**
 * The server writes its `detail` in English. In English it is shown as is
 * (it is the most precise); in another language the client's own text for the
 * error code, else for the HTTP status, stands in for it (docs/api-reference.md §13).
 */
function inClientLanguage(): boolean {
  return i18next.isInitialized && !!i18next.resolvedLanguage && i18next.resolvedLanguage !== 'en'
}

function localMessage(status: number, code: string | undefined): string {
  // The `errors` namespace is fetched in the background (i18n/index.ts); until it is there, the general text.
  if (code && i18next.exists(`errors:code.${code}`)) return i18next.t(`errors:code.${code}`)
  if (i18next.exists(`errors:httpStatus.${status}`)) return i18next.t(`errors:httpStatus.${status}`)
  return i18next.t('common:errors.status', { status })
}

/** A 422 field's message by its `type`, with the limit the server's English names ("at least 8"). */
function localFieldMessage(e: FieldError): string {
  const limit = /(\d+)/.exec(String(e.msg))?.[1]
  // An empty required text ("at least 1 character") simply is missing.
  const type = e.type === 'string_too_short' && limit === '1' ? 'missing' : e.type
  const raw: unknown = type ? i18next.getResource(i18next.resolvedLanguage ?? '', 'errors', `field.${type}`) : undefined
  if (typeof raw === 'string' && (limit !== undefined || !raw.includes('{{'))) {
    return i18next.t(`errors:field.${type}`, { limit })
  }
  return i18next.t('common:errors.invalid')
}

export class ApiError extends Error {
  readonly status: number
  readonly code: string | undefined
  readonly fieldErrors: FieldError[]
  readonly retryAfter: number | undefined

  constructor(status: number, body: unknown, retryAfter?: number) {
    const detail = (body as { detail?: unknown } | null)?.detail
    const code = (body as { code?: string } | null)?.code
    const local = inClientLanguage()
    const fieldErrors = Array.isArray(detail)
      ? (detail as FieldError[]).map((e) => (local ? { ...e, msg: localFieldMessage(e) } : e))
      : []
    const message =
      status === 0
        ? text('errors.network', 'The server could not be reached. Check your connection and try again.')
        : local
          ? localMessage(status, code)
          : typeof detail === 'string'
            ? detail
            : fieldErrors.length > 0
              ? fieldErrors.map((e) => e.msg).join('; ')
              : text('errors.status', `Request failed (${status})`, { status })
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.fieldErrors = fieldErrors
    this.retryAfter = retryAfter
  }

  /**
   * Maps 422 errors to form field names: `loc` is FastAPI style, so the first
   * element (`body`, `query`, `path`) is dropped and the rest joined with dots.
   */
  fieldMap(): Record<string, string> {
    const out: Record<string, string> = {}
    for (const e of this.fieldErrors) {
      const loc = Array.isArray(e.loc) ? e.loc : []
      const parts = ['body', 'query', 'path', 'header'].includes(String(loc[0])) ? loc.slice(1) : loc
      const key = parts.length > 0 ? parts.join('.') : '_'
      if (!(key in out)) out[key] = e.msg
    }
    return out
  }
}
