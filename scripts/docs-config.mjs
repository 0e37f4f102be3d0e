// `npm run docs:config`: writes the README's configuration table from the
// settings' own definitions (server/src/config.settings.ts); the server's
// config.settings.test.ts fails while the README differs.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { withConfigTable } from '../server/src/config.settings.ts'

const readme = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md')
const next = withConfigTable(fs.readFileSync(readme, 'utf8'))
if (next === null) {
  console.error('README.md has no configuration table markers')
  process.exit(1)
}
fs.writeFileSync(readme, next)
console.log('README.md: configuration table written')
