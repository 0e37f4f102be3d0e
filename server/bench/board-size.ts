// The board at the size of a big stake's busy month (issue 30): 1,000 open
// proposals and 3,000 closed in the last 30 days, on SQLite and (when one
// answers) PostgreSQL. For each way of asking for it: the answer's bytes as
// a browser receives them (Brotli, as the server compresses live answers),
// per card it carries and per card on the board, and p50 / p99 at
// concurrency 1 (the request asks for Brotli, so compression is in the time).
//
//   cd server && npx tsx bench/board-size.ts     (or npm run bench with BENCH_ONLY='board size')
//   BENCH_SECONDS=3, BENCH_DB=sqlite|postgres|both, BENCH_RESEED=1 as for npm run bench
import http from 'node:http'
import type { Dialect } from '../src/db/database.ts'
import { measure, type Request, type Stats } from './load.ts'
import { openSession } from './scenarios.ts'
import { buildServer, startServer } from './server-process.ts'
import { clearSessions, ensureStake, postgresAnswers, stakeUrl, type Stake } from './stake-store.ts'
import type { Argon2Params } from '../src/modules/auth/passwords.ts'

export const BOARD_SIZE = { open: 1000, closed: 3000, closedWithinDays: 30 }
const ON_BOARD = BOARD_SIZE.open + BOARD_SIZE.closed
const ACCEPT = { 'accept-encoding': 'br, gzip' }

export interface BoardSizeRow {
  name: string
  /** Cards the answer carries. */
  cards: number
  /** Compressed body bytes, and uncompressed. */
  bytes: number
  rawBytes: number
  status: number
  c1: Stats
}

export interface BoardSizeResult {
  dialect: Dialect
  rows: BoardSizeRow[]
}

/** One GET, its body's bytes as they came over the wire (still compressed). */
function fetchRaw(baseUrl: string, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; bytes: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    http
      .get(`${baseUrl}${path}`, { headers, agent: false }, (res) => {
        let bytes = 0
        res.on('data', (chunk: Buffer) => (bytes += chunk.length))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, headers: res.headers }))
        res.on('error', reject)
      })
      .on('error', reject)
  })
}

async function fetchJson(baseUrl: string, path: string, headers: Record<string, string>) {
  const res = await fetch(`${baseUrl}${path}`, { headers })
  const text = await res.text()
  return { text, json: JSON.parse(text) as unknown }
}

type Board = { stages: Record<string, unknown[]>; closed_recently: unknown[] }
const cardsOf = (path: string, json: unknown): number => {
  if (Array.isArray(json)) return json.length
  if (path.endsWith('/compact')) return (json as { cards: unknown[] }).cards.length
  const board = json as Board
  return Object.values(board.stages).flat().length + board.closed_recently.length
}

export async function measureBoardSize(
  dialect: Dialect,
  argon2: Argon2Params,
  seconds: number,
  warmup: number,
  log: (line: string) => void,
): Promise<BoardSizeResult> {
  const stake: Stake = { dialect, name: 'board', size: BOARD_SIZE, url: stakeUrl(dialect, 'board') }
  log(`${dialect} board stake (1,000 open, 3,000 closed in 30 days): ${await ensureStake(stake, argon2)}`)
  await clearSessions(stake.url)
  const server = await startServer(stake.url)
  const rows: BoardSizeRow[] = []
  try {
    const session = await openSession(server.baseUrl, BOARD_SIZE, 0)
    const auth = session.auth
    const compact = await fetchRaw(server.baseUrl, '/api/calling-kanban/board/compact', { ...auth, ...ACCEPT })
    const full = await fetchRaw(server.baseUrl, '/api/calling-kanban/board', { ...auth, ...ACCEPT })
    const asks: { name: string; path: string; headers: Record<string, string>; expect?: number }[] = [
      { name: 'GET /board (every card, as before)', path: '/api/calling-kanban/board', headers: {} },
      {
        name: 'GET /board, If-None-Match (unchanged)',
        path: '/api/calling-kanban/board',
        headers: { 'if-none-match': String(full.headers.etag) },
        expect: 304,
      },
      {
        name: 'GET /board/compact (open cards, closed counts)',
        path: '/api/calling-kanban/board/compact',
        headers: {},
      },
      {
        name: 'GET /board/compact, If-None-Match (unchanged)',
        path: '/api/calling-kanban/board/compact',
        headers: { 'if-none-match': String(compact.headers.etag) },
        expect: 304,
      },
      { name: 'GET /board/closed (a page of 50)', path: '/api/calling-kanban/board/closed?limit=50', headers: {} },
    ]
    for (const ask of asks) {
      const headers = { ...auth, ...ACCEPT, ...ask.headers }
      const wire = await fetchRaw(server.baseUrl, ask.path, headers)
      const expect = ask.expect ?? 200
      if (wire.status !== expect) throw new Error(`${ask.name}: ${wire.status}`)
      const body = expect === 200 ? await fetchJson(server.baseUrl, ask.path, auth) : null
      const request: Request = { method: 'GET', path: ask.path, headers }
      const c1 = await measure(server.baseUrl, { next: () => request, expect }, 1, seconds, warmup)
      const row: BoardSizeRow = {
        name: ask.name,
        cards: body ? cardsOf(ask.path, body.json) : 0,
        bytes: wire.bytes,
        rawBytes: body ? Buffer.byteLength(body.text) : 0,
        status: wire.status,
        c1,
      }
      log(
        `  ${row.name}: ${row.cards} cards, ${row.bytes} B compressed (${row.rawBytes} B raw), p50 ${c1.p50.toFixed(2)} ms, p99 ${c1.p99.toFixed(2)} ms${c1.failures ? `, ${c1.failures} failures` : ''}`,
      )
      rows.push(row)
    }
  } finally {
    await server.stop()
  }
  return { dialect, rows }
}

const perCard = (bytes: number, cards: number) => (cards ? (bytes / cards).toFixed(0) : '–')

export function boardSizeFigures(results: BoardSizeResult[]): string {
  const lines = [
    `Board of 1,000 open + 3,000 closed in the last 30 days (${ON_BOARD} cards on the board); bytes Brotli-compressed as served; c=1`,
    '| | cards sent | compressed (raw) | B/card sent | B/card on the board | p50 | p99 |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ]
  for (const r of results) {
    for (const row of r.rows) {
      lines.push(
        `| ${r.dialect}: ${row.name} | ${row.cards} | ${row.bytes} (${row.rawBytes}) | ${perCard(row.bytes, row.cards)} | ${row.status === 200 ? perCard(row.bytes, ON_BOARD) : '–'} | ${row.c1.p50.toFixed(1)} ms | ${row.c1.p99.toFixed(1)} ms |`,
      )
    }
  }
  return lines.join('\n')
}

// Run on its own: `npx tsx bench/board-size.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { parseConfig } = await import('../src/config.ts')
  const seconds = Number(process.env.BENCH_SECONDS ?? 3)
  const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 0.5)
  const which = process.env.BENCH_DB ?? 'both'
  const log = (line: string) => process.stderr.write(`${line}\n`)
  buildServer()
  const results: BoardSizeResult[] = []
  if (which !== 'postgres') results.push(await measureBoardSize('sqlite', parseConfig({}).argon2, seconds, warmup, log))
  if (which !== 'sqlite' && (await postgresAnswers()))
    results.push(await measureBoardSize('postgres', parseConfig({}).argon2, seconds, warmup, log))
  console.log(`\n${boardSizeFigures(results)}\n`)
}
