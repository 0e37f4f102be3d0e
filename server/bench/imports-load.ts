// Imports under load (docs/performance.md, "Imports under load"): while one
// stake previews a hostile PDF (200 pages drawing one compressed stream of
// operators just under the 2 MB a page that is read: the worst a PDF can
// cost, as a page over that limit is refused before any reading) and a
// 5 MiB CSV, another stake's board is measured,
// against the same board alone just before and just after. The server is a
// separate process started as an operator starts it; both stakes live in one
// database (the small stake as stake 1, the importing stake as stake 2).
// Target: the board's p99 meanwhile within 1.5× of its figure alone, and the
// hostile PDF ends with its clear time-limit error (422) within that limit.
import http from 'node:http'
import os from 'node:os'
import { PDFDocument, PDFName } from 'pdf-lib'
import type { Argon2Params } from '../src/modules/auth/passwords.ts'
import type { Dialect } from '../src/db/database.ts'
import { createDatabase } from '../src/database.ts'
import { acrossStakes } from '../src/db/stake-scope.ts'
import { MAX_ROWS } from '../src/modules/imports/limits.ts'
import { measure, send, type Stats } from './load.ts'
import { SCENARIOS, openSession } from './scenarios.ts'
import { startServer } from './server-process.ts'
import { PASSWORD } from './stake-data.ts'
import { appRoleUrl, clearSessions, ensureStake, stakeUrl, STAKE_ONE, type Stake } from './stake-store.ts'

const SECONDS = Number(process.env.BENCH_IMPORTS_LOAD_SECONDS ?? 30)
const PDF_PAGES = 200
/** Just under the drawing a page may hold (PDF_MAX_PAGE_CONTENT). */
const PDF_PAGE_BYTES = 1_990_000
const CSV_BYTES = 5 * 2 ** 20 - 4096
const SIZE = { open: 100, closed: 900 }
const IMPORTER_EMAIL = 'admin@stake2.bench.example.org'

export interface ReadTimes {
  status: number
  ms: number
  detail: string
}

export interface ImportsLoadResult {
  dialect: Dialect
  /** The board alone before and after, and while the other stake's reports are read. */
  before: Stats
  during: Stats
  after: Stats
  pdf: ReadTimes[]
  csv: ReadTimes[]
  pdfBytes: number
  csvBytes: number
  loadAverage: string
}

/** Pages drawing one compressed stream of line operators, just under the page limit: small to send, long to read. */
export async function hostilePdf(pages = PDF_PAGES): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const stream = doc.context.flateStream(Buffer.from('0 0 m 1 1 l S\n'.repeat(Math.floor(PDF_PAGE_BYTES / 14))))
  const ref = doc.context.register(stream)
  for (let i = 0; i < pages; i++) doc.addPage([612, 792]).node.set(PDFName.of('Contents'), ref)
  return Buffer.from(await doc.save())
}

/** A member list just under 5 MiB and under the row limit: each row carries a long column read past. */
function bigCsv(): string {
  const rows = MAX_ROWS - 1
  const header = 'Name,Phone Number,E-mail,Notes\r\n'
  const width = Math.floor((CSV_BYTES - header.length) / rows) - 2
  const lines = Array.from({ length: rows }, (_, i) => {
    const k = String(i).padStart(5, '0')
    const cells = `"Loadbearer${k}, Ottilie${k}",555-${k},ottilie.${k}@example.org,`
    return cells + 'x'.repeat(width - cells.length)
  })
  return header + lines.join('\r\n')
}

function post(baseUrl: string, path: string, headers: Record<string, string>, body: Buffer | string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const url = new URL(path, baseUrl)
    const req = http.request(url, { method: 'POST', headers, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** The previews and rate-limit rows of earlier runs would hit the importer's limits: every run starts without them. */
async function clearImports(url: string): Promise<void> {
  const { db, close } = createDatabase(url, STAKE_ONE)
  try {
    await acrossStakes(() => db.deleteFrom('imports').execute())
  } finally {
    await close()
  }
}

export async function measureImportsLoad(
  dialect: Dialect,
  argon2: Argon2Params,
  log: (line: string) => void,
): Promise<ImportsLoadResult> {
  const stake: Stake = { dialect, name: 'imports_load', size: SIZE, url: stakeUrl(dialect, 'imports_load'), others: 1 }
  log(`${dialect} imports under load, two stakes: ${await ensureStake(stake, argon2)}`)
  await clearSessions(stake.url)
  await clearImports(stake.url)
  // On PostgreSQL as a role without BYPASSRLS, as production (the server refuses a superuser).
  const server = await startServer(dialect === 'postgres' ? await appRoleUrl(stake) : stake.url)
  try {
    const session = await openSession(server.baseUrl, SIZE, 0)
    const board = SCENARIOS.find((s) => s.key === 'board')!
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    const login = await send(agent, server.baseUrl, {
      method: 'POST',
      path: '/api/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: IMPORTER_EMAIL, password: PASSWORD }).toString(),
    })
    agent.destroy()
    if (login.status !== 200) throw new Error(`importer login: ${login.status} ${login.body}`)
    const auth = `Bearer ${(JSON.parse(login.body) as { access_token: string }).access_token}`
    const pdf = await hostilePdf()
    const csv = bigCsv()

    const alone = async (when: string) => {
      const stats = await measure(server.baseUrl, board.workload(session), 1, SECONDS / 2, 0.5)
      log(`  board alone (${when}): p50 ${stats.p50.toFixed(2)} ms, p99 ${stats.p99.toFixed(2)} ms`)
      return stats
    }
    const before = await alone('before')

    // The other stake reads its reports, one after the other (one read at a time per stake), until the board is measured.
    const reads = { pdf: [] as ReadTimes[], csv: [] as ReadTimes[] }
    let measuring = true
    const read = async (which: 'pdf' | 'csv') => {
      const started = performance.now()
      const body = which === 'pdf' ? pdf : csv
      const type = which === 'pdf' ? 'application/pdf' : 'text/csv'
      const res = await post(server.baseUrl, '/api/imports', { authorization: auth, 'content-type': type }, body)
      const ms = performance.now() - started
      const detail = res.status === 201 ? 'preview' : res.body.slice(0, 200)
      reads[which].push({ status: res.status, ms, detail })
      log(`  ${which === 'pdf' ? 'hostile PDF' : '5 MiB CSV'}: ${res.status} in ${ms.toFixed(0)} ms (${detail})`)
    }
    const importing = (async () => {
      while (measuring) {
        await read('pdf')
        if (measuring) await read('csv')
      }
    })()
    const during = await measure(server.baseUrl, board.workload(session), 1, SECONDS, 0.5)
    measuring = false
    log(`  board meanwhile: p50 ${during.p50.toFixed(2)} ms, p99 ${during.p99.toFixed(2)} ms`)
    await importing
    const after = await alone('after')
    return {
      dialect,
      before,
      during,
      after,
      pdf: reads.pdf,
      csv: reads.csv,
      pdfBytes: pdf.length,
      csvBytes: Buffer.byteLength(csv),
      loadAverage: os
        .loadavg()
        .map((v) => v.toFixed(1))
        .join(' '),
    }
  } finally {
    await server.stop()
  }
}

export function importsLoadFigures(results: ImportsLoadResult[]): string {
  const ms = (v: number) => `${v.toFixed(1)} ms`
  const lines = [
    "Imports under load (target: the other stake's board p99 within 1.5× of alone; the hostile PDF a 422 within its 10 s)",
    '| Database | Board p99 alone (before / after) | Board p99 meanwhile | Ratio (to their mean) | Hostile PDF | 5 MiB CSV | Load average |',
    '|---|---:|---:|---:|---|---|---|',
  ]
  for (const r of results) {
    const aloneP99 = (r.before.p99 + r.after.p99) / 2
    const reads = (list: ReadTimes[]) => list.map((x) => `${x.status} in ${(x.ms / 1000).toFixed(1)} s`).join(', ')
    lines.push(
      `| ${r.dialect} | ${ms(r.before.p99)} / ${ms(r.after.p99)} | ${ms(r.during.p99)} | ${(r.during.p99 / aloneP99).toFixed(2)}× | ${reads(r.pdf)} | ${reads(r.csv)} | ${r.loadAverage} |`,
    )
  }
  return lines.join('\n')
}
