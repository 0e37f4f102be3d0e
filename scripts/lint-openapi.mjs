// `npm run lint:openapi`: the OpenAPI document as the server serves it, linted
// by Redocly's recommended rules (redocly.yaml). The app is built in-process on
// an in-memory SQLite database, so no server, port or data is needed.
// Run with `node --import tsx` (the server's sources are TypeScript).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buildApp } from '../server/src/app.ts'
import { parseConfig } from '../server/src/config.ts'
import { createDatabase } from '../server/src/database.ts'
import { migrate } from '../server/src/db/migrate.ts'

const root = path.resolve(import.meta.dirname, '..')

const database = createDatabase('sqlite::memory:')
await migrate(database.db)
const app = await buildApp({ config: parseConfig({}), db: database.db, dialect: database.dialect, logger: false })
await app.ready()
const document = app.swagger()
await app.close()
await database.close()

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-'))
const file = path.join(dir, 'openapi.json')
fs.writeFileSync(file, JSON.stringify(document, null, 2))
// JSON output, so warnings fail the run too: Redocly itself exits 0 on them,
// and "clean" means no problem of either kind.
const result = spawnSync(
  path.join(root, 'node_modules', '.bin', 'redocly'),
  ['lint', file, '--config', path.join(root, 'redocly.yaml'), '--format', 'json'],
  // No usage report and no update check: a lint run stays off the network.
  {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  },
)
fs.rmSync(dir, { recursive: true, force: true })

let report
try {
  report = JSON.parse(result.stdout)
} catch {
  process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`)
  process.exit(result.status || 1)
}
const where = (problem) => {
  const pointer = problem.location?.[0]?.pointer ?? ''
  return decodeURIComponent(pointer.replace(/^#/, '')).replace(/~1/g, '/').replace(/~0/g, '~')
}
for (const problem of report.problems) {
  console.log(`${problem.severity.padEnd(5)} ${problem.ruleId}  ${where(problem)}\n      ${problem.message}`)
}
const { errors, warnings } = report.totals
console.log(`OpenAPI document: ${errors} errors, ${warnings} warnings (Redocly ${report.version}, redocly.yaml)`)
process.exit(errors + warnings > 0 ? 1 : 0)
