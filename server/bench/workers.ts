// One server process against two on one port (WORKERS=1 and WORKERS=2,
// node:cluster), on the big stake: throughput and p99 at c=20 of the routes
// read most often, and the memory of every process. See docs/performance.md.
//
//   BENCH_ONLY=workers            this section alone
//   BENCH_WORKERS_ROUNDS=5        rounds per route; each measures both servers, in turn
//   BENCH_WORKERS_SECONDS=2       measured seconds per server and round (after half the warm-up)
import type { Argon2Params } from '../src/modules/auth/passwords.ts'
import type { Dialect } from '../src/db/database.ts'
import { measure, type Stats } from './load.ts'
import { SCENARIOS, openSession } from './scenarios.ts'
import { memoryOf, processTree, startServer, type Server } from './server-process.ts'
import { clearSessions, ensureStake, stakeUrl, type Stake } from './stake-store.ts'

const ROUNDS = Number(process.env.BENCH_WORKERS_ROUNDS ?? 5)
const SECONDS = Number(process.env.BENCH_WORKERS_SECONDS ?? 2)
const CONCURRENCY = 20
const BIG = { open: 1000, closed: 20000 }
/** The routes compared: a session check, a rotation (a write), a proposal, the calendar, two lists. */
const WORKERS_KEYS = ['me', 'refresh', 'detail', 'calendar', 'users', 'callings']
const COUNTS = [1, 2] as const

interface ProcessMemory {
  role: 'single' | 'primary' | 'worker'
  readyMb: number
  peakMb: number
}

export interface WorkersResult {
  dialect: Dialect
  /** Per route key, per worker count: one Stats per round. */
  rounds: Record<string, Record<(typeof COUNTS)[number], Stats[]>>
  memory: Record<(typeof COUNTS)[number], ProcessMemory[]>
}

function roles(count: number, pids: number[]): ProcessMemory['role'][] {
  return count === 1 ? ['single'] : pids.map((_, i) => (i === 0 ? 'primary' : 'worker'))
}

/**
 * Both servers run at once, on the same database, and each route is
 * measured on one then the other in short rounds (1, 2; then 2, 1; ...), so
 * other work on the machine falls on both alike. The figures shown are the
 * medians of the rounds.
 */
export async function measureWorkers(
  dialect: Dialect,
  argon2: Argon2Params,
  log: (line: string) => void,
  warmup: number,
): Promise<WorkersResult> {
  const big: Stake = { dialect, name: 'big', size: BIG, url: stakeUrl(dialect, 'big') }
  log(`${dialect} big stake: ${await ensureStake(big, argon2)}`)
  await clearSessions(big.url)
  const servers: Partial<Record<(typeof COUNTS)[number], Server>> = {}
  try {
    for (const count of COUNTS) servers[count] = await startServer(big.url, { WORKERS: String(count) })
    const ready = Object.fromEntries(
      COUNTS.map((count) => [count, processTree(servers[count]!.pid).map((pid) => memoryOf(pid)?.rssMb ?? NaN)]),
    )
    const sessions = {
      1: await openSession(servers[1]!.baseUrl, BIG, 40),
      2: await openSession(servers[2]!.baseUrl, BIG, 40),
    }
    const result: WorkersResult = { dialect, rounds: {}, memory: { 1: [], 2: [] } }
    for (const key of WORKERS_KEYS) {
      const scenario = SCENARIOS.find((s) => s.key === key)!
      result.rounds[key] = { 1: [], 2: [] }
      for (let round = 0; round < ROUNDS; round++) {
        for (const count of round % 2 ? ([2, 1] as const) : ([1, 2] as const)) {
          const stats = await measure(
            servers[count]!.baseUrl,
            scenario.workload(sessions[count]),
            CONCURRENCY,
            SECONDS,
            warmup / 2,
          )
          const failed = stats.failures ? `, ${stats.failures} failures (${stats.firstFailure})` : ''
          log(
            `  ${scenario.name}, ${count} worker(s), round ${round + 1}: p99 ${stats.p99.toFixed(1)} ms, ${stats.rps.toFixed(0)} req/s${failed}`,
          )
          result.rounds[key][count].push(stats)
        }
      }
    }
    for (const count of COUNTS) {
      const pids = processTree(servers[count]!.pid)
      const kinds = roles(count, pids)
      result.memory[count] = pids.map((pid, i) => ({
        role: kinds[i]!,
        readyMb: ready[count]![i] ?? NaN,
        peakMb: memoryOf(pid)?.peakMb ?? NaN,
      }))
    }
    return result
  } finally {
    for (const server of Object.values(servers)) await server.stop()
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
const nameOf = (key: string) => SCENARIOS.find((s) => s.key === key)!.name

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')
}

export function workersFigures(results: WorkersResult[]): string {
  const out: string[] = []
  for (const r of results) {
    const rows = Object.entries(r.rounds).map(([key, byCount]) => {
      const rps = (count: 1 | 2) => median(byCount[count].map((s) => s.rps))
      const p99 = (count: 1 | 2) => median(byCount[count].map((s) => s.p99))
      const failures = [...byCount[1], ...byCount[2]].reduce((sum, s) => sum + s.failures, 0)
      return [
        nameOf(key),
        rps(1).toFixed(0),
        rps(2).toFixed(0),
        `${(rps(2) / rps(1)).toFixed(2)}×`,
        p99(1).toFixed(1),
        p99(2).toFixed(1),
        `${(p99(2) / p99(1)).toFixed(2)}×`,
        String(failures),
      ]
    })
    out.push(
      `### ${r.dialect}: 1 and 2 workers at c=20, big stake (medians of ${ROUNDS} rounds of ${SECONDS} s)`,
      '',
      table(['route', '1 w req/s', '2 w req/s', 'ratio', '1 w p99 ms', '2 w p99 ms', 'ratio', 'failures'], rows),
      '',
      'Memory (RSS, MB): ' +
        COUNTS.map(
          (count) =>
            `${count} worker${count > 1 ? 's' : ''}: ` +
            r.memory[count]
              .map((m) => `${m.role} ${m.readyMb.toFixed(0)} at ready, ${m.peakMb.toFixed(0)} peak`)
              .join('; '),
        ).join(' — '),
      '',
    )
  }
  return out.join('\n')
}
