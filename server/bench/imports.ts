// Importing LCR reports (issue 26, docs/api-reference.md §15): preview and
// apply of a 3,000-row member list and a 600-row callings report, and the
// preview of a 40-page PDF report, on a fresh database per dialect, through
// the app in this process (app.inject: the request's whole server-side work,
// no socket). Memory: the process's RSS and heap growth over the run.
// Targets (issue 26): preview ≤ 2 s, apply ≤ 5 s; the PDF's preview ≤ 5 s.
import pg from 'pg'
import { PERMISSIONS } from '@stake/contract'
import { buildApp } from '../src/app.ts'
import { parseConfig } from '../src/config.ts'
import type { Dialect } from '../src/db/database.ts'
import { createDatabase } from '../src/database.ts'
import { migrate } from '../src/db/migrate.ts'
import { inStake } from '../src/db/stake-scope.ts'
import { PasswordHasher } from '../src/modules/auth/passwords.ts'
import { replaceDirectPermissions } from '../src/modules/users/permissions.repository.ts'
import { insertUser } from '../src/modules/users/users.repository.ts'
import { CALLINGS_HEADER, csv, lcrPdf, MEMBER_LIST_HEADER } from '../src/test/imports.fixtures.ts'
import { PG_URL } from './stake-store.ts'

const MEMBERS = 3000
const CALLINGS_ROWS = 600
const PDF_PAGES = 40
const PDF_ROWS_PER_PAGE = 40

export interface ImportTimes {
  rows: number
  previewMs: number
  applyMs: number | null
}

export interface ImportBenchResult {
  dialect: Dialect
  members: ImportTimes
  callings: ImportTimes
  /** `previewMs`: the first PDF since the start (pdfjs-dist loads); `warmPreviewMs`: the same report again. */
  pdf: ImportTimes & { pages: number; bytes: number; warmPreviewMs: number }
  rssGrowthMb: number
  heapPeakGrowthMb: number
}

const ORGS = ['Relief Society', 'Elders Quorum', 'Primary', 'Young Women', 'Sunday School', 'Music']

/** Invented people: `Surname0001, Given0001`, two in three with an email. */
function memberRows(n: number): string[][] {
  return Array.from({ length: n }, (_, i) => {
    const k = String(i).padStart(4, '0')
    return [
      `Zephyrine${k}, Odalys${k}`,
      i % 2 ? 'F' : 'M',
      String(18 + (i % 70)),
      '29 Apr 1971',
      `555-${k}`,
      i % 3 ? `odalys.${k}@example.org` : '',
    ]
  })
}

/** 600 of them in 60 callings (10 seats each) of one ward. */
function callingRows(n: number, prefix: string): string[][] {
  return Array.from({ length: n }, (_, i) => {
    const k = String(i).padStart(4, '0')
    return [
      ORGS[i % ORGS.length]!,
      `${prefix} Calling ${Math.floor(i / 10)}`,
      `Zephyrine${k}, Odalys${k}`,
      '3 Sep 2024',
      'Yes',
    ]
  })
}

async function freshDatabase(dialect: Dialect): Promise<{ url: string; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') return { url: 'sqlite::memory:', drop: async () => {} }
  const name = `stake_bench_imports_${process.pid}`
  const admin = new pg.Client({ connectionString: PG_URL })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${name}`)
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(PG_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    },
  }
}

export async function measureImports(dialect: Dialect, log: (line: string) => void): Promise<ImportBenchResult> {
  const { url, drop } = await freshDatabase(dialect)
  const database = createDatabase(url)
  try {
    await inStake(1, () => migrate(database.db))
    const config = parseConfig({ DATABASE_URL: url })
    const app = await buildApp({ config, db: database.db, dialect })
    await app.ready()
    const password = 'bench-imports-password-1'
    const hasher = new PasswordHasher(config.argon2)
    await inStake(1, async () => {
      const row = await insertUser(database.db, {
        email: 'bench-importer@example.org',
        fname: 'Bench',
        lname: 'Importer',
        password_hash: await hasher.hash(password),
        force_password_reset: false,
        now: new Date().toISOString(),
      })
      await replaceDirectPermissions(database.db, row.id, [...PERMISSIONS])
    })
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username: 'bench-importer@example.org', password }).toString(),
    })
    const token = login.json().access_token as string
    const auth = { authorization: `Bearer ${token}` }
    const ward = await app.inject({
      method: 'POST',
      url: '/api/wards/',
      headers: auth,
      payload: { name: 'Bench Ward', start_time: 600 },
    })
    const wardId = ward.json().id as number

    global.gc?.()
    const rssBase = process.memoryUsage().rss
    const heapBase = process.memoryUsage().heapUsed
    let heapPeak = heapBase
    const sampler = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 10)

    const timed = async (what: string, body: string | Buffer, type: string, query: string, apply: boolean) => {
      let started = performance.now()
      const res = await app.inject({
        method: 'POST',
        url: `/api/imports${query}`,
        headers: { ...auth, 'content-type': type },
        payload: body,
      })
      const previewMs = performance.now() - started
      if (res.statusCode !== 201) throw new Error(`${what} preview: ${res.statusCode} ${res.body.slice(0, 300)}`)
      let applyMs: number | null = null
      if (apply) {
        started = performance.now()
        const done = await app.inject({ method: 'POST', url: `/api/imports/${res.json().id}/apply`, headers: auth })
        applyMs = performance.now() - started
        if (done.statusCode !== 200) throw new Error(`${what} apply: ${done.statusCode} ${done.body.slice(0, 300)}`)
      }
      log(`  ${what}: preview ${previewMs.toFixed(0)} ms${applyMs === null ? '' : `, apply ${applyMs.toFixed(0)} ms`}`)
      return { previewMs, applyMs }
    }

    const members = await timed(
      `member list, ${MEMBERS} rows`,
      csv([MEMBER_LIST_HEADER, ...memberRows(MEMBERS)], { bom: true, crlf: true }),
      'text/csv',
      '',
      true,
    )
    const callings = await timed(
      `callings report, ${CALLINGS_ROWS} rows`,
      csv([CALLINGS_HEADER, ...callingRows(CALLINGS_ROWS, 'Ward')]),
      'text/csv',
      `?ward_id=${wardId}`,
      true,
    )
    const pdfRows = PDF_PAGES * PDF_ROWS_PER_PAGE
    const pdf = await lcrPdf('Organizations and Callings', CALLINGS_HEADER, callingRows(pdfRows, 'Stake'), {
      rowsPerPage: PDF_ROWS_PER_PAGE,
    })
    const pdfTimes = await timed(
      `PDF, ${PDF_PAGES} pages (${pdfRows} rows, ${(pdf.length / 1024).toFixed(0)} KiB)`,
      pdf,
      'application/pdf',
      '',
      false,
    )
    const warm = await timed(`the same PDF again (pdfjs-dist loaded)`, pdf, 'application/pdf', '', false)
    clearInterval(sampler)
    global.gc?.()
    const result: ImportBenchResult = {
      dialect,
      members: { rows: MEMBERS, ...members },
      callings: { rows: CALLINGS_ROWS, ...callings },
      pdf: { rows: pdfRows, pages: PDF_PAGES, bytes: pdf.length, ...pdfTimes, warmPreviewMs: warm.previewMs },
      rssGrowthMb: (process.memoryUsage().rss - rssBase) / 2 ** 20,
      heapPeakGrowthMb: (heapPeak - heapBase) / 2 ** 20,
    }
    await app.close()
    return result
  } finally {
    await database.close()
    await drop()
  }
}

export function importFigures(results: ImportBenchResult[]): string {
  const ms = (v: number | null) => (v === null ? '—' : `${(v / 1000).toFixed(2)} s`)
  const lines = [
    'Imports of LCR reports (targets: preview ≤ 2 s, apply ≤ 5 s; 40-page PDF preview ≤ 5 s)',
    '| Database | Report | Rows | Preview | Apply |',
    '|---|---|---:|---:|---:|',
  ]
  for (const r of results) {
    lines.push(
      `| ${r.dialect} | member list (CSV) | ${r.members.rows} | ${ms(r.members.previewMs)} | ${ms(r.members.applyMs)} |`,
    )
    lines.push(
      `| ${r.dialect} | callings (CSV) | ${r.callings.rows} | ${ms(r.callings.previewMs)} | ${ms(r.callings.applyMs)} |`,
    )
    lines.push(
      `| ${r.dialect} | callings (PDF, ${r.pdf.pages} pages), first since start | ${r.pdf.rows} | ${ms(r.pdf.previewMs)} | — |`,
    )
    lines.push(
      `| ${r.dialect} | callings (PDF, ${r.pdf.pages} pages), again | ${r.pdf.rows} | ${ms(r.pdf.warmPreviewMs)} | — |`,
    )
  }
  for (const r of results)
    lines.push(
      `${r.dialect}: memory growth over the run ${r.rssGrowthMb.toFixed(0)} MB RSS, heap peak +${r.heapPeakGrowthMb.toFixed(0)} MB`,
    )
  return lines.join('\n')
}
