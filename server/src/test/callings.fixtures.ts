import assert from 'node:assert/strict'
import type { Calling } from '@stake/contract'
import type { LightMyRequestResponse } from 'fastify'
import type { TestApp } from './harness.ts'
import { unique } from './factories.ts'

/** Test helpers for the callings and wards suites (not a test file). */

export type As = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) => Promise<LightMyRequestResponse>

export async function systemCallingId(t: TestApp, key: string): Promise<number> {
  const row = await t.database.db.selectFrom('callings').select('id').where('key', '=', key).executeTakeFirstOrThrow()
  return row.id
}

/** Creates a user-made calling through the API and returns it. */
export async function makeCalling(as: As, body: Record<string, unknown> = {}): Promise<Calling> {
  const res = await as('POST', '/api/callings/', { name: unique('Calling '), ...body })
  assert.equal(res.statusCode, 201, res.body)
  return res.json()
}

export function expectError(res: LightMyRequestResponse, status: number, code?: string): void {
  assert.equal(res.statusCode, status, res.body)
  if (code !== undefined) assert.equal(res.json().code, code, res.body)
}

/** The `loc`s of a 422 body. */
export function locs(res: LightMyRequestResponse): string[] {
  assert.equal(res.statusCode, 422, res.body)
  return res.json().detail.map((d: { loc: string[] }) => d.loc.join('.'))
}
