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

/** Answers 204 No Content once the work is done (a delete, a mark-as-read). */
export async function noContent(reply: FastifyReply, work: Promise<unknown>): Promise<FastifyReply> {
  await work
  return reply.status(204).send(null)
}
