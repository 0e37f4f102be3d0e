import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'

/** A Fastify instance whose route schemas type the handlers (TypeBox). */
export type FastifyTypebox = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression<RawServerDefault>,
  RawReplyDefaultExpression<RawServerDefault>,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>

/** Sends a page of a list: the rows as the body, the total in X-Total-Count. */
export function sendPage<T>(reply: FastifyReply, page: { rows: T[]; total: number }): T[] {
  reply.header('X-Total-Count', String(page.total))
  return page.rows
}

/**
 * For routes that answer bytes kept by a cache (board, calendar, /auth/me):
 * `serialize` makes them with the route's own response serializer, so they
 * are exactly what returning the object would send; `sendKept` sends them as
 * they are.
 */
export const serializerOf =
  <T>(reply: FastifyReply) =>
  (value: T): string =>
    reply.serialize(value) as string

export function sendKept(reply: FastifyReply, bytes: Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(bytes)
}
