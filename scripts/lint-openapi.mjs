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
import { createDatabase } from '../server/src/db/database.ts'
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
const result = spawnSync(
  path.join(root, 'node_modules', '.bin', 'redocly'),
  ['lint', file, '--config', path.join(root, 'redocly.yaml'), ...process.argv.slice(2)],
  // No usage report and no update check: a lint run stays off the network.
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  },
)
fs.rmSync(dir, { recursive: true, force: true })
process.exit(result.status ?? 1)
