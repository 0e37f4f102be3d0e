// The proposal tracker's benchmark scenarios (npm run bench): the board with
// 1,000 open proposals, and a single proposal read, each against a bare
// server answering the same bytes.
import type { Scenario } from '../../../bench/scenarios.ts'
import { seedProposals } from './proposals.factories.ts'

const OPEN_PROPOSALS = 1000

let seeded: Promise<{ firstId: number }> | null = null

/** 1,000 open proposals (spread over the open stages, with votes), seeded once for both scenarios. */
function seed(env: Parameters<Scenario['prepare']>[0]) {
  seeded ??= (async () => {
    await seedProposals(env.db, OPEN_PROPOSALS, { submitter: env.adminId, voter: env.adminId })
    const first = await env.db.selectFrom('proposals').select('id').orderBy('id').executeTakeFirstOrThrow()
    return { firstId: first.id }
  })()
  return seeded
}

export const proposalBoardScenario: Scenario = {
  name: `GET /api/calling-kanban/board (${OPEN_PROPOSALS} open)`,
  target: 0.5,
  baseline: 'same-bytes',
  async prepare(env) {
    await seed(env)
    const res = await env.api('GET', '/api/calling-kanban/board')
    const cards = Object.values(res.json.stages as Record<string, unknown[]>).flat().length
    if (res.status !== 200 || cards < OPEN_PROPOSALS) throw new Error(`board not ready: ${res.status}, ${cards} cards`)
    return { method: 'GET', path: '/api/calling-kanban/board', headers: { authorization: `Bearer ${env.adminToken}` } }
  },
}

export const proposalReadScenario: Scenario = {
  name: 'GET /api/calling-kanban/proposals/{id}',
  target: 0.5,
  baseline: 'same-bytes',
  async prepare(env) {
    const { firstId } = await seed(env)
    const path = `/api/calling-kanban/proposals/${firstId}`
    const res = await env.api('GET', path)
    if (res.status !== 200) throw new Error(`proposal read failed: ${res.status} ${res.text}`)
    return { method: 'GET', path, headers: { authorization: `Bearer ${env.adminToken}` } }
  },
}
