import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * Conditional GET for a JSON answer (RFC 9110 §8.8.3, §13.1.2): the ETag is a
 * hash of the answer's bytes, so it changes exactly when something the caller
 * can see changes, and every instance of the service computes the same one
 * from the same data (nothing is kept in memory between requests). Weak, as
 * the bytes differ with the compression chosen. When `If-None-Match` names
 * it, the answer is a 304 without a body; otherwise the bytes hashed are the
 * bytes sent, serialised once by `JSON.stringify`: the boards are large (the
 * full one 2.4 MB at 4,000 cards), and a second serialisation by the response
 * schema cost the 200 a fifth of its time. So the body bypasses the schema's
 * filtering: the services build it to the contract's shape, which the board
 * tests check field by field (`assertContractShape`).
 */
export function sendWithEtag<T>(request: FastifyRequest, reply: FastifyReply, body: T): FastifyReply {
  const json = JSON.stringify(body)
  const tag = `W/"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`
  reply.header('ETag', tag)
  if (matches(request.headers['if-none-match'], tag)) return reply.code(304).send()
  return reply.type('application/json; charset=utf-8').send(json)
}

/** Weak comparison against an If-None-Match list (`*` matches any current answer). */
function matches(header: string | undefined, tag: string): boolean {
  if (!header) return false
  const opaque = (t: string) => t.trim().replace(/^W\//, '')
  return header.split(',').some((t) => t.trim() === '*' || opaque(t) === opaque(tag))
}
