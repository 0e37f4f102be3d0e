import assert from 'node:assert/strict'
import type { injectAs } from './factories.ts'

/** A booking link for `name` with the given interviewer (30 minutes): its token and the page's API path. */
export async function bookingLink(
  as: ReturnType<typeof injectAs>,
  interviewerId: number,
  name: string,
): Promise<{ token: string; path: string }> {
  const body = { kind: 'other', name, interviewer_id: interviewerId, duration_minutes: 30 }
  const made = await as('POST', '/api/appointments/offers', body)
  assert.equal(made.statusCode, 201, made.body)
  const token = (made.json().url as string).split('#')[1]!
  return { token, path: `/api/appointments/book/${token}` }
}
