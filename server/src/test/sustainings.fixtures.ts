import assert from 'node:assert/strict'
import type { Proposal, ProposalBody, Ward } from '@stake/contract'
import { signedIn } from './factories.ts'
import type { TestApp } from './harness.ts'
import { move, submit } from './proposals.fixtures.ts'

/** Test helpers for the sustainings suites (not a test file). */

export type As = Awaited<ReturnType<typeof signedIn>>['as']

export const PROPOSALS = '/api/calling-kanban/proposals'

/** Submits as a manager and advances the proposal to `sustain` along its own path. */
export async function atSustain(manager: As, wardId: number, overrides: Partial<ProposalBody> = {}): Promise<Proposal> {
  const p = await submit(manager, wardId, overrides)
  let stage = p.stage
  while (stage !== 'sustain') stage = (await move(manager, p.id, 'advance', stage)).stage
  return { ...p, stage }
}

export async function present(as: As, id: number, body: { ward_id: number; date?: string }) {
  return as('POST', `${PROPOSALS}/${id}/presented`, body)
}

export async function allWards(t: TestApp): Promise<Ward[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/wards/' })
  assert.equal(res.statusCode, 200, res.body)
  return res.json()
}
