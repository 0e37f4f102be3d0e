// npm run bench: latency of the service on a big stake's data, on SQLite and
// (when one answers at BENCH_DATABASE_URL) PostgreSQL. See docs/performance.md.
//
//   BENCH_SECONDS=3          measured seconds per route and concurrency (after BENCH_WARMUP_SECONDS=0.5)
//   BENCH_ONLY=<regex>       only the routes whose key or name matches (e.g. 'board|search'; 'cold start' for that;
//                            'board size' for the board of 1,000 open + 3,000 recently closed, bench/board-size.ts)
//   BENCH_DB=sqlite|postgres|both (default both; postgres only when it answers)
//   BENCH_RESEED=1           seed the stakes again even when the cached ones match
//   BENCH_STAKES=100         adds the "many stakes" section: the big stake among that many stakes
//                            (default 1: no such section, unless BENCH_ONLY names 'many stakes', then 100)
//   BENCH_MANY_ROUNDS=6      rounds of alone / among many stakes per route in that section,
//   BENCH_MANY_SECONDS=1     each BENCH_MANY_SECONDS measured after BENCH_WARMUP_SECONDS / 2
//   BENCH_ONLY=imports       only the LCR imports (bench/imports.ts): 3,000 members, 600 callings, a 40-page PDF;
//                            and imports under load (bench/imports-load.ts): another stake's board while one stake
//                            previews a hostile PDF and a 5 MiB CSV ('imports under load' for that alone;
//                            BENCH_IMPORTS_LOAD_SECONDS=30 measured meanwhile: a hostile PDF, the CSV, and the PDF again)
//   BENCH_ONLY=workers       only 1 against 2 server processes (WORKERS) at c=20 (bench/workers.ts)
//   BENCH_WORKERS=1          server processes of every other section (default 1)
//   BENCH_PG_PREFIX=stake_bench  the PostgreSQL databases' names start with this
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Algorithm, hash } from '@node-rs/argon2'
import { parseConfig } from '../src/config.ts'
import type { Dialect } from '../src/db/database.ts'
import { measure, type Stats } from './load.ts'
import { figures, manyFigures, targets, type DialectResult, type ManyResult } from './report.ts'
import { GROWTH_KEYS, SCENARIOS, openSession, type Scenario, type Session } from './scenarios.ts'
import { measureNotifications, notifyFigures, type NotifyResult } from './notify.ts'
import { importFigures, measureImports, type ImportBenchResult } from './imports.ts'
import { importsLoadFigures, measureImportsLoad, type ImportsLoadResult } from './imports-load.ts'
import { boardSizeFigures, measureBoardSize, type BoardSizeResult } from './board-size.ts'
import { buildServer, memoryOf, startServer, type Server } from './server-process.ts'
import { measureWorkers, workersFigures, type WorkersResult } from './workers.ts'
import {
  APP_ROLE,
  DATA_DIR,
  appRoleUrl,
  clearSessions,
  databaseSizeMb,
  ensureStake,
  postgresAnswers,
  stakeUrl,
  type Stake,
} from './stake-store.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3)
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 0.5)
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null
const WHICH = process.env.BENCH_DB ?? 'both'
/** Spawns timed to /ready (skipped when BENCH_ONLY names routes only). */
const COLD_STARTS = !ONLY || ONLY.test('cold start') ? 3 : 0
const CONCURRENCY = [1, 20]
const BIG = { open: 1000, closed: 20000 }
const SMALL = { open: 100, closed: 900 }

const STAKES = Number(process.env.BENCH_STAKES ?? (ONLY?.test('many stakes') ? 100 : 1))
const MANY_ROUNDS = Number(process.env.BENCH_MANY_ROUNDS ?? 6)
const MANY_SECONDS = Number(process.env.BENCH_MANY_SECONDS ?? 1)
/** Lists, whose c=20 p99 targets are checked among many stakes too. */
const LIST_KEYS = ['stage-open', 'stage-done', 'ward']

const argon2 = parseConfig({}).argon2
const selected = SCENARIOS.filter((s) => !ONLY || ONLY.test(s.key) || ONLY.test(s.name))
/**
 * The "many stakes" section's routes: the selected ones; when BENCH_ONLY names
 * the section, the routes it also names ('many stakes|board'), or all.
 */
const manySelected = STAKES > 1 ? (ONLY?.test('many stakes') && !selected.length ? SCENARIOS : selected) : []
const mainSelected = ONLY?.test('many stakes') || ONLY?.test('workers') ? [] : selected
const log = (line: string) => process.stderr.write(`${line}\n`)

/** One argon2id hash with the configured parameters, in this process (median of several): what a login cannot go below. */
async function hashMs(): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < 9; i++) {
    const started = performance.now()
    await hash(`password-${i}`, { algorithm: Algorithm.Argon2id, ...argon2 })
    times.push(performance.now() - started)
  }
  return times.sort((a, b) => a - b)[4]!
}

async function run(
  server: Server,
  session: Session,
  scenario: Scenario,
  concurrency: number,
  seconds = SECONDS,
  warmup = WARMUP,
): Promise<Stats> {
  const stats = await measure(server.baseUrl, scenario.workload(session), concurrency, seconds, warmup)
  const failed = stats.failures ? `, ${stats.failures} failures` : ''
  log(
    `  ${scenario.name} c=${concurrency}: p50 ${stats.p50.toFixed(2)} ms, p99 ${stats.p99.toFixed(2)} ms, ${stats.rps.toFixed(0)} req/s${failed}`,
  )
  return stats
}

async function measureDialect(dialect: Dialect): Promise<DialectResult> {
  const big = bigStake(dialect)
  const small: Stake = { dialect, name: 'small', size: SMALL, url: stakeUrl(dialect, 'small') }
  for (const stake of [big, small]) {
    log(`${dialect} ${stake.name} stake: ${await ensureStake(stake, argon2)}`)
    await clearSessions(stake.url)
  }
  const result: DialectResult = {
    dialect,
    big: {},
    small: {},
    coldStartMs: [],
    idleMb: null,
    peakMb: null,
    peakWithLoginMb: null,
    hashMs: NaN,
  }

  for (let i = 0; i < COLD_STARTS; i++) {
    const server = await startServer(big.url)
    result.coldStartMs.push(server.startMs)
    await server.stop()
  }
  if (COLD_STARTS) log(`${dialect} cold start: ${result.coldStartMs.map((v) => v.toFixed(0)).join(', ')} ms`)

  // The big stake: every route at both concurrencies; login last, as its
  // argon2 memory (19 MiB per hash in flight) would hide the others' peak.
  let server = await startServer(big.url)
  try {
    result.idleMb = memoryOf(server.pid)?.rssMb ?? null
    const session = await openSession(server.baseUrl, BIG, 40)
    const ordered = [...mainSelected.filter((s) => s.key !== 'login'), ...mainSelected.filter((s) => s.key === 'login')]
    for (const scenario of ordered) {
      if (scenario.key === 'login') {
        result.peakMb = memoryOf(server.pid)?.peakMb ?? null
        // Measured just before the login run, so both see the same machine load.
        result.hashMs = await hashMs()
      }
      const entry: DialectResult['big'][string] = {}
      for (const c of CONCURRENCY) entry[c === 1 ? 'c1' : 'c20'] = await run(server, session, scenario, c)
      result.big[scenario.key] = entry
    }
    result.peakWithLoginMb = memoryOf(server.pid)?.peakMb ?? null
    result.peakMb ??= result.peakWithLoginMb
  } finally {
    await server.stop()
  }

  // The small stake, for growth: the same routes at concurrency 1.
  const growth = mainSelected.filter((s) => GROWTH_KEYS.includes(s.key))
  if (growth.length) {
    server = await startServer(small.url)
    try {
      const session = await openSession(server.baseUrl, SMALL, 0)
      for (const scenario of growth) result.small[scenario.key] = await run(server, session, scenario, 1)
    } finally {
      await server.stop()
    }
  }
  return result
}

const bigStake = (dialect: Dialect): Stake => ({ dialect, name: 'big', size: BIG, url: stakeUrl(dialect, 'big') })

/**
 * Many stakes (issue 25): the big stake as stake 1 of a database with
 * STAKES - 1 other stakes, against the same stake alone in its database. Both
 * servers run at once and each route is measured on one then the other, in
 * short rounds (alone, many; then many, alone; ...), so other work on the
 * machine falls on both alike; each round gives a ratio of the two p50s, and
 * the ratio shown is the median of the rounds' (the p50s, the median of the
 * rounds' p50s). On
 * PostgreSQL both servers connect as a role without BYPASSRLS, as production.
 */
async function measureManyStakes(dialect: Dialect): Promise<ManyResult> {
  const big = bigStake(dialect)
  // A database per number of stakes, so that 100 and 1,000 stay seeded side by side.
  const name = STAKES === 100 ? 'many' : `many_${STAKES}`
  const many: Stake = { ...big, name, url: stakeUrl(dialect, name), others: STAKES - 1 }
  log(`${dialect} big stake: ${await ensureStake(big, argon2)}`)
  const seeding = await ensureStake(many, argon2)
  log(`${dialect} ${STAKES} stakes: ${seeding}`)
  const result: ManyResult = {
    dialect,
    stakes: STAKES,
    seeding,
    sizeMb: { alone: await databaseSizeMb(big), many: await databaseSizeMb(many) },
    role: null,
    alone: {},
    many: {},
    manyC20: {},
  }
  let urls = { alone: big.url, many: many.url }
  if (dialect === 'postgres') {
    urls = { alone: await appRoleUrl(big), many: await appRoleUrl(many) }
    result.role = APP_ROLE
  }
  for (const url of [big.url, many.url]) await clearSessions(url)
  const servers = { alone: await startServer(urls.alone), many: await startServer(urls.many) }
  try {
    const sessions = {
      alone: await openSession(servers.alone.baseUrl, BIG, 40),
      many: await openSession(servers.many.baseUrl, BIG, 40),
    }
    for (const scenario of manySelected) {
      result.alone[scenario.key] = []
      result.many[scenario.key] = []
      for (let round = 0; round < MANY_ROUNDS; round++) {
        const order = round % 2 ? (['many', 'alone'] as const) : (['alone', 'many'] as const)
        for (const which of order) {
          log(`  ${which === 'alone' ? 'alone' : `among ${STAKES} stakes`}, round ${round + 1}:`)
          result[which][scenario.key]!.push(
            await run(servers[which], sessions[which], scenario, 1, MANY_SECONDS, WARMUP / 2),
          )
        }
      }
      if (LIST_KEYS.includes(scenario.key)) {
        log(`  among ${STAKES} stakes:`)
        result.manyC20[scenario.key] = await run(servers.many, sessions.many, scenario, 20)
      }
    }
  } finally {
    await servers.alone.stop()
    await servers.many.stop()
  }
  return result
}

async function main() {
  buildServer()
  const dialects: Dialect[] = []
  if (WHICH !== 'postgres') dialects.push('sqlite')
  if (WHICH !== 'sqlite') {
    if (await postgresAnswers()) dialects.push('postgres')
    else
      log(
        `PostgreSQL does not answer at BENCH_DATABASE_URL: ${WHICH === 'postgres' ? 'nothing to measure' : 'SQLite only'}`,
      )
  }
  const machine = `${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}, ${new Date().toISOString()}`
  log(
    `${machine}; load average ${os.loadavg()[0]!.toFixed(1)}; ${SECONDS} s per route and concurrency after ${WARMUP} s warm-up`,
  )
  const results: DialectResult[] = []
  const notifications: NotifyResult[] = []
  const manyResults: ManyResult[] = []
  const imports: ImportBenchResult[] = []
  const importsLoad: ImportsLoadResult[] = []
  const boardSizes: BoardSizeResult[] = []
  const workers: WorkersResult[] = []
  for (const dialect of dialects) {
    if (!ONLY || ONLY.test('workers')) {
      log(`${dialect} workers:`)
      workers.push(await measureWorkers(dialect, argon2, log, WARMUP))
    }
    if (mainSelected.length || COLD_STARTS) results.push(await measureDialect(dialect))
    if (manySelected.length) {
      log(`${dialect} many stakes:`)
      manyResults.push(await measureManyStakes(dialect))
    }
    if (!ONLY || ONLY.test('notifications')) {
      log(`${dialect} notifications:`)
      notifications.push(await measureNotifications(dialect, argon2, SECONDS, WARMUP, log))
    }
    if (!ONLY || ONLY.test('imports')) {
      log(`${dialect} imports:`)
      imports.push(await measureImports(dialect, log))
    }
    if (!ONLY || ONLY.test('imports under load')) importsLoad.push(await measureImportsLoad(dialect, argon2, log))
    if (!ONLY || ONLY.test('board size')) boardSizes.push(await measureBoardSize(dialect, argon2, SECONDS, WARMUP, log))
  }

  // Other work on the machine shows in every figure: say how busy it was.
  const load = os
    .loadavg()
    .map((v) => v.toFixed(1))
    .join(' ')
  console.log(`\n${machine}; load average at the end ${load}; ${SECONDS} s measured per route and concurrency\n`)
  for (const r of results) console.log(`${figures(r)}\n`)
  if (results.length) console.log(targets(results))
  if (manyResults.length) console.log(`\n${manyFigures(manyResults, results)}`)
  if (notifications.length) console.log(`\n${notifyFigures(notifications)}\n`)
  if (imports.length) console.log(`\n${importFigures(imports)}\n`)
  if (importsLoad.length) console.log(`${importsLoadFigures(importsLoad)}\n`)
  if (boardSizes.length) console.log(`${boardSizeFigures(boardSizes)}\n`)
  if (workers.length) console.log(`${workersFigures(workers)}\n`)
  fs.mkdirSync(DATA_DIR, { recursive: true })
  fs.writeFileSync(
    path.join(DATA_DIR, 'last-run.json'),
    JSON.stringify(
      {
        machine,
        load,
        seconds: SECONDS,
        results,
        manyResults,
        notifications,
        imports,
        importsLoad,
        boardSizes,
        workers,
      },
      null,
      2,
    ),
  )
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
