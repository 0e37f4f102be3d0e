// The benchmark's figures as Markdown tables (readable in a terminal, and
// pasted as they are into docs/performance.md), and the targets of issue 12
// with met / NOT met.
import type { Stats } from './load.ts'
import { SCENARIOS } from './scenarios.ts'

export interface DialectResult {
  dialect: string
  /** Per scenario key: the big stake at concurrency 1 and 20. */
  big: Record<string, { c1?: Stats; c20?: Stats }>
  /** Per scenario key: the small stake (1,000 proposals, 100 open) at concurrency 1. */
  small: Record<string, Stats>
  coldStartMs: number[]
  /** The big-stake server's RSS once ready (before any load), its peak before the login run, and at the end. */
  idleMb: number | null
  peakMb: number | null
  peakWithLoginMb: number | null
  hashMs: number
}

const nameOf = (key: string) => SCENARIOS.find((s) => s.key === key)!.name
const ms = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '–' : v < 10 ? v.toFixed(2) : v.toFixed(1))
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')
}

export function figures(r: DialectResult): string {
  const rows = Object.entries(r.big).map(([key, { c1, c20 }]) => [
    nameOf(key),
    ms(c1?.p50),
    ms(c1?.p99),
    c1 ? c1.rps.toFixed(0) : '–',
    ms(c20?.p50),
    ms(c20?.p99),
    c20 ? c20.rps.toFixed(0) : '–',
    String((c1?.failures ?? 0) + (c20?.failures ?? 0)),
  ])
  const growth = Object.entries(r.small).map(([key, small]) => {
    const big = r.big[key]?.c1
    return [nameOf(key), ms(small.p50), ms(big?.p50), big ? `${(big.p50 / small.p50).toFixed(2)}×` : '–']
  })
  const failures = [...Object.values(r.big).flatMap((b) => [b.c1, b.c20]), ...Object.values(r.small)]
    .map((s) => s?.firstFailure)
    .filter(Boolean)
  return [
    `### ${r.dialect}: big stake (1,000 open + 20,000 closed proposals); latency in ms`,
    '',
    table(['route', 'c=1 p50', 'c=1 p99', 'c=1 req/s', 'c=20 p50', 'c=20 p99', 'c=20 req/s', 'failures'], rows),
    '',
    `Growth (p50 at c=1): small stake (1,000 proposals, 100 open) → big stake (21,000 proposals, 1,000 open)`,
    '',
    table(['route', 'small p50', 'big p50', 'ratio'], growth),
    '',
    `argon2id hash alone (in-process, configured parameters): ${ms(r.hashMs)} ms; ` +
      (r.coldStartMs.length
        ? `cold start (spawn → /ready 200): ${r.coldStartMs.map((v) => v.toFixed(0)).join(', ')} ms (median ${median(r.coldStartMs).toFixed(0)}); `
        : '') +
      `server RSS once ready: ${r.idleMb?.toFixed(0) ?? '–'} MB; peak: ${r.peakMb?.toFixed(0) ?? '–'} MB before the login run, ${r.peakWithLoginMb?.toFixed(0) ?? '–'} MB with it.`,
    ...(failures.length ? ['', `First failures: ${failures.join('; ')}`] : []),
  ].join('\n')
}

interface Target {
  name: string
  limit: string
  /** The measured value as shown, and whether it meets the target; null when not measured in this run. */
  check(r: DialectResult): { shown: string; met: boolean } | null
}

const atMost = (value: number | undefined | null, limit: number, shown: (v: number) => string) =>
  value === undefined || value === null || Number.isNaN(value) ? null : { shown: shown(value), met: value <= limit }

const P99_ROUTES = ['me', 'refresh', 'detail', 'calendar', 'stage-open', 'stage-done', 'ward']
const GROWTH_ROUTES = ['me', 'detail', 'calendar', 'stage-open', 'stage-done', 'ward']
const ratio = (r: DialectResult, key: string) =>
  r.big[key]?.c1 && r.small[key] ? r.big[key].c1.p50 / r.small[key].p50 : undefined

export const TARGETS: Target[] = [
  ...P99_ROUTES.map((key) => ({
    name: `${nameOf(key)}: p99 at c=20`,
    limit: '≤ 25 ms',
    check: (r: DialectResult) => atMost(r.big[key]?.c20?.p99, 25, (v) => `${ms(v)} ms`),
  })),
  {
    name: `${nameOf('search')}: p50 at c=1`,
    limit: '≤ 30 ms',
    check: (r) => atMost(r.big.search?.c1?.p50, 30, (v) => `${ms(v)} ms`),
  },
  {
    name: `${nameOf('board')}, 1,000 open: p50 at c=1`,
    limit: '≤ 40 ms',
    check: (r) => atMost(r.big.board?.c1?.p50, 40, (v) => `${ms(v)} ms`),
  },
  ...GROWTH_ROUTES.map((key) => ({
    name: `${nameOf(key)}: growth 1,000 → 21,000 proposals`,
    limit: '≤ 1.3×',
    check: (r: DialectResult) => atMost(ratio(r, key), 1.3, (v) => `${v.toFixed(2)}×`),
  })),
  {
    name: 'board: 1,000 open vs 100 open',
    limit: '≤ 12×',
    check: (r) => atMost(ratio(r, 'board'), 12, (v) => `${v.toFixed(2)}×`),
  },
  {
    name: 'login p50 at c=1 vs one argon2id hash',
    limit: '≤ 1.5×',
    check: (r) => atMost(r.big.login?.c1 ? r.big.login.c1.p50 / r.hashMs : undefined, 1.5, (v) => `${v.toFixed(2)}×`),
  },
  {
    name: 'server RSS once ready',
    limit: '≤ 128 MB',
    check: (r) => atMost(r.idleMb, 128, (v) => `${v.toFixed(0)} MB`),
  },
  {
    name: 'server peak RSS under the load',
    limit: '≤ 256 MB',
    check: (r) => atMost(r.peakWithLoginMb ?? r.peakMb, 256, (v) => `${v.toFixed(0)} MB`),
  },
  {
    name: 'cold start on the big stake (median)',
    limit: '≤ 1.0 s',
    check: (r) =>
      atMost(r.coldStartMs.length ? median(r.coldStartMs) : undefined, 1000, (v) => `${(v / 1000).toFixed(2)} s`),
  },
]

export function targets(results: DialectResult[]): string {
  const rows = TARGETS.flatMap((t) => {
    const cells = results.map((r) => t.check(r))
    if (cells.every((c) => c === null)) return []
    return [[t.name, t.limit, ...cells.map((c) => (c ? `${c.shown} ${c.met ? 'met' : 'NOT met'}` : '–'))]]
  })
  return ['### Targets', '', table(['target', 'limit', ...results.map((r) => r.dialect)], rows)].join('\n')
}

export interface ManyResult {
  dialect: string
  /** Stakes in the many-stakes database (the big stake is stake 1). */
  stakes: number
  /** What ensureStake did for the many-stakes database ("reused", or "seeded in … s, … MB (…)"). */
  seeding: string
  sizeMb: { alone: string; many: string }
  /** The PostgreSQL role both servers connected as (null on SQLite). */
  role: string | null
  /** Per scenario key: one c=1 run per round, the big stake alone and among the others. */
  alone: Record<string, Stats[]>
  many: Record<string, Stats[]>
  /** The lists at c=20 among the others (their p99 target). */
  manyC20: Record<string, Stats>
}

/** The median of the rounds' p50s (the mean of the middle two for an even count). */
export function medianP50(runs: Stats[] | undefined): number {
  const values = (runs ?? []).map((s) => s.p50).sort((a, b) => a - b)
  if (values.length === 0) return NaN
  const mid = Math.floor(values.length / 2)
  return values.length % 2 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2
}

/** The targets among many stakes: within 1.2× of one stake alone among 100, 1.3× among 1,000. */
const manyLimit = (stakes: number) => (stakes > 100 ? 1.3 : 1.2)

/** The median of the rounds' ratios (many / alone, each round's pair measured one after the other). */
export function pairedRatio(alone: Stats[] | undefined, many: Stats[] | undefined): number {
  const ratios = (many ?? []).flatMap((m, i) => (alone?.[i] ? [m.p50 / alone[i].p50] : []))
  return medianP50(ratios.map((p50) => ({ p50 }) as Stats))
}

/** The "many stakes" tables: p50 alone vs among the other stakes, their ratio, and the existing targets of the board, lists and search. */
export function manyFigures(results: ManyResult[], main: DialectResult[]): string {
  const out: string[] = []
  for (const r of results) {
    const limit = manyLimit(r.stakes)
    const rows = Object.keys(r.many).map((key) => {
      const alone = medianP50(r.alone[key])
      const many = medianP50(r.many[key])
      const ratio = pairedRatio(r.alone[key], r.many[key])
      const all = (runs: Stats[] | undefined) => (runs ?? []).map((s) => ms(s.p50)).join(', ')
      return [
        nameOf(key),
        ms(alone),
        ms(many),
        `${ratio.toFixed(2)}×${ratio > limit ? ' NOT met' : ''}`,
        all(r.alone[key]),
        all(r.many[key]),
      ]
    })
    const rounds = Math.max(0, ...Object.values(r.many).map((runs) => runs.length))
    out.push(
      `### ${r.dialect}: the big stake alone vs among ${r.stakes} stakes (p50 at c=1 in ms, median of ${rounds} rounds; ratio: median of the rounds' ratios)`,
      '',
      `Many-stakes database: ${r.seeding}; size ${r.sizeMb.many} MB (the big stake alone: ${r.sizeMb.alone} MB).` +
        (r.role ? ` Both servers connect as \`${r.role}\` (no superuser, no BYPASSRLS: row-level security on).` : ''),
      '',
      table(['route', 'alone', `${r.stakes} stakes`, `ratio (≤ ${limit}×)`, 'alone, rounds', 'many, rounds'], rows),
      '',
    )
    const big = main.find((m) => m.dialect === r.dialect)
    const targetRows: string[][] = []
    const check = (name: string, limit: number, value: number | undefined, before: number | undefined) => {
      if (value === undefined || Number.isNaN(value)) return
      targetRows.push([
        name,
        `≤ ${limit} ms`,
        `${ms(value)} ms ${value <= limit ? 'met' : 'NOT met'}`,
        before === undefined ? '–' : `${ms(before)} ms`,
      ])
    }
    check(`${nameOf('search')}: p50 at c=1`, 30, r.many.search && medianP50(r.many.search), big?.big.search?.c1?.p50)
    check(
      `${nameOf('board')}, 1,000 open: p50 at c=1`,
      40,
      r.many.board && medianP50(r.many.board),
      big?.big.board?.c1?.p50,
    )
    for (const [key, stats] of Object.entries(r.manyC20))
      check(`${nameOf(key)}: p99 at c=20`, 25, stats.p99, big?.big[key]?.c20?.p99)
    if (targetRows.length) {
      out.push(
        `Existing targets among ${r.stakes} stakes (${r.dialect})`,
        '',
        big
          ? table(['target', 'limit', `${r.stakes} stakes`, 'alone (main section)'], targetRows)
          : table(
              ['target', 'limit', `${r.stakes} stakes`],
              targetRows.map((row) => row.slice(0, 3)),
            ),
        '',
      )
    }
  }
  return out.join('\n')
}
