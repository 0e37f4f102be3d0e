import type { Kysely } from 'kysely'
import type { DB } from '../src/db/schema.ts'
import { proposalBoardScenario, proposalReadScenario } from '../src/modules/proposals/proposals.bench.ts'
import { speakingCalendarScenario } from '../src/modules/speaking/speaking.bench.ts'

/** What a scenario gets to prepare its data and requests. */
export interface BenchEnv {
  baseUrl: string
  /** Access token of a signed-in administrator holding every permission. */
  adminToken: string
  adminId: number
  /** The service's own database (SQLite, WAL), for fast bulk seeding. */
  db: Kysely<DB>
  api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any; text: string }>
}

export interface PreparedLoad {
  method: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  body?: string
}

export interface Scenario {
  name: string
  /** Ratio to the bare server that the issue asks for (reported, not enforced). */
  target: number
  /**
   * 'health': the bare server's small fixed JSON; 'same-bytes': a bare server
   * answering exactly the bytes this endpoint answers.
   */
  baseline: 'health' | 'same-bytes'
  prepare(env: BenchEnv): Promise<PreparedLoad>
}

/**
 * Scenarios contributed by the domain modules (board, proposal read, speaking
 * calendar …). The foundation's own (health, me, refresh, login) live in run.ts.
 */
export const SCENARIOS: Scenario[] = [speakingCalendarScenario, proposalBoardScenario, proposalReadScenario]
