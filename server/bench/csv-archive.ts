/**
 * One-off measurement of GET /calling-kanban/proposals.csv with 20,000 rows
 * (issue 16): time to the last byte and the server's heap growth, streamed
 * over a real socket (app.inject would buffer the body). SQLite in memory.
 * Run: npx tsx bench/csv-archive.ts [rows]
 */
import { createTestApp } from '../src/test/harness.ts'
import { createAdmin, login } from '../src/test/factories.ts'
import { seedProposals } from '../src/test/proposals.fixtures.ts'

const rows = Number(process.argv[2] ?? 20000)
const t = await createTestApp()
const admin = await createAdmin(t)
const { token } = await login(t, admin)
await seedProposals(t.database.db, rows)
await t.database.db.updateTable('proposals').set({ stage: 'done' }).execute()
const address = await t.app.listen({ port: 0, host: '127.0.0.1' })

global.gc?.()
const base = process.memoryUsage().heapUsed
let peak = base
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5)
const started = performance.now()
const res = await fetch(`${address}/api/calling-kanban/proposals.csv?stage=done`, {
  headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' },
})
let bytes = 0
let lines = 0
for await (const chunk of res.body!) {
  bytes += chunk.length
  for (const b of chunk) if (b === 10) lines++
}
const ms = performance.now() - started
clearInterval(sampler)
console.log(
  `${rows} rows: ${lines - 1} data lines, ${(bytes / 1e6).toFixed(1)} MB in ${ms.toFixed(0)} ms; ` +
    `heap growth peak ${((peak - base) / 1e6).toFixed(1)} MB (client and server share the process)`,
)
await t.close()
