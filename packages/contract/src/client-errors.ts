import { Type, type Static } from 'typebox'

/**
 * POST /api/client-errors: what the web client reports when a screen fails.
 * The caps bound the request (longer is a 422); the server shortens each
 * field further before logging it.
 */
export const ClientErrorBody = Type.Object({
  message: Type.String({ minLength: 1, maxLength: 4000 }),
  /** The client route's path; a query string or hash is dropped before logging. */
  route: Type.String({ minLength: 1, maxLength: 2000, pattern: '^/' }),
  stack: Type.Optional(Type.String({ maxLength: 16000 })),
})
export type ClientErrorBody = Static<typeof ClientErrorBody>
