import fp from 'fastify-plugin'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, ValidationFailure, unavailable, type FieldError } from '../errors.ts'
import { busy, isRetryable } from '../db/errors.ts'
import { isDatabaseUnavailable } from '../db/unavailable.ts'

const CONTEXT_TO_LOC: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
}

interface AjvError {
  keyword: string
  instancePath: string
  message?: string
  params: Record<string, unknown>
}

/** Maps one Ajv error to a FastAPI-style `{loc, msg, type}` (docs/api-reference.md §2). */
function toFieldError(context: string, error: AjvError): FieldError {
  const loc = [CONTEXT_TO_LOC[context] ?? context]
  for (const part of error.instancePath.split('/').slice(1)) loc.push(part.replace(/~1/g, '/').replace(/~0/g, '~'))
  const p = error.params
  switch (error.keyword) {
    case 'required':
      loc.push(String(p.missingProperty))
      return { loc, msg: 'Field required', type: 'missing' }
    case 'type':
      return {
        loc,
        msg: `Input should be a valid ${typeName(String(p.type))}`,
        type: `${typeName(String(p.type))}_type`,
      }
    case 'minLength':
      return {
        loc,
        msg: `String should have at least ${p.limit} character${p.limit === 1 ? '' : 's'}`,
        type: 'string_too_short',
      }
    case 'maxLength':
      return { loc, msg: `String should have at most ${p.limit} characters`, type: 'string_too_long' }
    case 'minimum':
      return { loc, msg: `Input should be greater than or equal to ${p.limit}`, type: 'greater_than_equal' }
    case 'maximum':
      return { loc, msg: `Input should be less than or equal to ${p.limit}`, type: 'less_than_equal' }
    case 'pattern':
      return { loc, msg: 'String does not have the expected format', type: 'string_pattern_mismatch' }
    case 'format':
      return { loc, msg: `Input should be a valid ${p.format}`, type: `${String(p.format).replace(/-/g, '_')}_parsing` }
    case 'maxItems':
      return { loc, msg: `List should have at most ${p.limit} items`, type: 'too_long' }
    case 'const':
    case 'enum':
    case 'anyOf':
      return { loc, msg: 'Input is not one of the allowed values', type: 'enum' }
    default:
      return { loc, msg: error.message ?? 'Invalid value', type: 'value_error' }
  }
}

function typeName(type: string): string {
  if (type === 'integer') return 'integer'
  if (type === 'number') return 'number'
  if (type === 'boolean') return 'boolean'
  if (type === 'string') return 'string'
  if (type === 'array') return 'list'
  if (type === 'object') return 'dictionary'
  return type.split(',')[0] ?? type
}

/** A union's failure shows up as one error per branch; keep one per location. */
function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>()
  return errors.filter((e) => {
    const key = e.loc.join('\u0000')
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

const size = (bytes: number) =>
  bytes % (1024 * 1024) === 0
    ? `${bytes / (1024 * 1024)} MiB`
    : bytes % 1024 === 0
      ? `${bytes / 1024} KiB`
      : `${bytes} bytes`

/**
 * Errors Fastify's router meets before any route or hook runs (Fastify's
 * `frameworkErrors` option): a path parameter over `maxParamLength` (a
 * 100,000-character token), a path that does not decode, a failing
 * constraint. Without this, Fastify answers them with its own
 * `{error, code, message}` body; here they take the contract's shape
 * (docs/api-reference.md §2).
 */
export function frameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  reply.header('Cache-Control', 'no-store')
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.status(414).send({ detail: 'A part of the address is too long', code: 'uri_too_long' })
  } else if (error.code === 'FST_ERR_BAD_URL') {
    void reply.status(400).send({ detail: 'The address is not a valid URL', code: 'bad_url' })
  } else {
    void reply.status(500).send({ detail: 'Internal server error' })
  }
}

/**
 * The one place that writes error JSON: validation, auth, domain and unknown
 * errors all leave through here in the contract's shapes (docs/api-reference.md §2).
 */
export default fp(async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler(async (caught: FastifyError & { validationContext?: string }, request, reply) => {
    let error = caught
    if (isRetryable(error)) {
      // Contention that escaped the retrying helpers (a lone statement) is 503 busy too.
      error = busy(1, error) as typeof error
    } else if (isDatabaseUnavailable(error)) {
      // Logged with its own code (SQLITE_FULL, 57P01...); the client learns only that it may retry.
      request.log.warn({ err: error }, 'database unavailable')
      error = unavailable('The database is unavailable; try again shortly') as typeof error
    }
    if (error instanceof AppError) {
      reply.headers(error.headers)
      return reply
        .status(error.status)
        .send(error.code ? { detail: error.message, code: error.code } : { detail: error.message })
    }
    if (error instanceof ValidationFailure) {
      return reply.status(422).send({ detail: error.errors })
    }
    if (error.validation) {
      const context = error.validationContext ?? 'body'
      return reply
        .status(422)
        .send({ detail: dedupe(error.validation.map((e) => toFieldError(context, e as AjvError))) })
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.status(422).send({
          detail: [
            {
              loc: ['header', 'content-type'],
              msg: `Unsupported content type: ${request.headers['content-type'] ?? 'none'}`,
              type: 'content_type',
            },
          ],
        })
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return reply.status(422).send({ detail: [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }] })
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply
          .status(413)
          .send({ detail: `Request body is too large (limit ${size(request.routeOptions.bodyLimit)})` })
    }
    // A JSON.parse failure from a content-type parser.
    if (error instanceof SyntaxError) {
      return reply.status(422).send({ detail: [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }] })
    }
    const status = error.statusCode ?? 500
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ detail: error.message })
    }
    request.log.error({ err: error }, 'unhandled error')
    return reply.status(500).send({ detail: 'Internal server error' })
  })
})
