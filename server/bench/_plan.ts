import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'
import { Kysely, SqliteDialect, PostgresDialect } from 'kysely'
import { listProposalViews, boardProposalViews, findProposalView } from '../src/modules/proposals/proposals.repository.ts'
const which = process.argv[2] ?? 'sqlite'
const captured: { sql: string; params: readonly unknown[] }[] = []
const log = (e: any) => { if (e.level === 'query') captured.push({ sql: e.query.sql, params: e.query.parameters }) }
const bind = (ps: readonly unknown[]) => ps.map((v) => (typeof v === 'boolean' ? Number(v) : v)) as any[]
let raw: BetterSqlite3.Database | null = null, pool: pg.Pool | null = null, db: Kysely<any>
if (which === 'sqlite') {
  raw = new BetterSqlite3('bench/.data/big.sqlite', { readonly: true })
  const r = raw
  db = new Kysely<any>({ log, dialect: new SqliteDialect({ database: { close: () => r.close(), prepare: (s: string) => { const st = r.prepare(s); return { reader: st.reader, all: (p: any) => st.all(bind(p)), run: (p: any) => st.run(bind(p)), iterate: (p: any) => st.iterate(bind(p)) } } } as any }) })
} else {
  pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/stake_bench' })
  db = new Kysely<any>({ log, dialect: new PostgresDialect({ pool }) })
}
const viewer = { id: 1, permissions: new Set(['proposals.view', 'proposals.manage', 'proposals.submit']), roles: { presidency: false, highCouncilor: false, bishopWardIds: [] } } as any
const cases: [string, () => Promise<unknown>][] = [
  ['board', () => boardProposalViews(db, viewer, new Date(Date.now() - 30 * 86400000).toISOString())],
  ['detail', () => findProposalView(db, viewer, 12345)],
  ...[{ stage: 'done' }, { stage: 'hc_approval' }, { ward_id: 7 }, { q: 'primary teacher' }, { q: 'nobody-called-this' }].map((f) => [JSON.stringify(f), () => listProposalViews(db, viewer, f as any, 50, 0)] as [string, () => Promise<unknown>]),
]
const only = process.argv[3] ? new RegExp(process.argv[3]) : null
for (const [name, run] of cases) {
  if (only && !only.test(name)) continue
  captured.length = 0
  await run()
  const times: number[] = []; for (let i = 0; i < 5; i++) { const t = performance.now(); await run(); times.push(performance.now() - t) }
  console.log('\n##', name, 'median of 5:', times.sort((a, b) => a - b)[2]!.toFixed(2), 'ms')
  for (const q of captured.slice(0, captured.length / 6 || captured.length)) {
    if (process.argv.includes('--sql')) console.log(q.sql)
    if (raw) {
      let t = performance.now(); for (let i = 0; i < 20; i++) raw.prepare(q.sql); const prep = (performance.now() - t) / 20
      const st = raw.prepare(q.sql); t = performance.now(); st.all(bind(q.params)); const exec = performance.now() - t
      console.log(`  prepare ${prep.toFixed(3)} ms, run ${exec.toFixed(2)} ms: ${q.sql.slice(0, 50)}…`)
      for (const r of raw.prepare('explain query plan ' + q.sql).all(bind(q.params)) as any[]) console.log('     ', r.detail)
    } else {
      const { rows } = await pool!.query('explain (analyze, costs off, timing on) ' + q.sql, q.params as any[])
      console.log(rows.map((r: any) => '     ' + r['QUERY PLAN']).join('\n'))
    }
  }
}
await db.destroy()
